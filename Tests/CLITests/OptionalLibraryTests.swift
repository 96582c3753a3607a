import Foundation
import Testing

/// A package that depends on OpenCapture must build on a machine without the optional
/// libraries (OpenCV, libcamera, PipeWire and the sd-bus it asks the Camera portal with):
/// those are reached only through plug-in products
/// loaded at run time, so the products an app lists for capture must not build against them.
@Suite("Optional libraries stay out of the main products")
struct OptionalLibraryTests {
    /// pkg-config names of the libraries only plug-ins may link.
    static let optional: Set<String> = ["opencv4", "libcamera", "libpipewire-0.3", "libsystemd"]
    /// The products an app lists to capture (and to serve a browser view).
    static let mainProducts = ["AVFoundation", "OpenCapture", "CoreMedia", "CoreVideo", "ImageIO", "AudioToolbox", "OpenCaptureWeb"]

    @Test("no main product builds against OpenCV, libcamera, libpipewire or libsystemd")
    func mainProductsNeedNoOptionalLibrary() throws {
        let graph = try PackageGraph.load()
        for product in Self.mainProducts {
            #expect(graph.libraries[product] != nil, "no library product \(product)")
            let reached = graph.systemLibraries(of: product).filter { Self.optional.contains($0.pkgConfig ?? "") }
            #expect(reached.isEmpty, "\(product) builds against \(reached.map(\.name)): a consumer without them could not build")
        }
    }

    @Test("each optional library is reached by a dynamic plug-in product of its own")
    func optionalLibrariesHavePlugIns() throws {
        let graph = try PackageGraph.load()
        let plugins = graph.libraries.keys.filter { !Self.mainProducts.contains($0) }
        for name in Self.optional.sorted() {
            let owners = plugins.filter { graph.systemLibraries(of: $0).contains { $0.pkgConfig == name } }
            #expect(!owners.isEmpty, "no plug-in product builds against \(name)")
        }
    }
}
