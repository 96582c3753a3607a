import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records what a metadata output delivers, batch by batch, on its own serial queue.
final class MetadataCollector: NSObject, AVCaptureMetadataOutputObjectsDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "test.metadata")
    private let log = Mutex<[[AVMetadataObject]]>([])
    private let onQueue = Atomic<Bool>(true)

    func metadataOutput(_ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection) {
        dispatchPrecondition(condition: .onQueue(queue))
        log.withLock { $0.append(metadataObjects) }
    }

    var batches: [[AVMetadataObject]] { log.withLock { $0 } }

    /// Every code delivered so far.
    var codes: [AVMetadataMachineReadableCodeObject] { batches.flatMap { $0.compactMap { $0 as? AVMetadataMachineReadableCodeObject } } }

    /// Every face delivered so far.
    var faces: [AVMetadataFaceObject] { batches.flatMap { $0.compactMap { $0 as? AVMetadataFaceObject } } }
}

/// Codes made by independent encoders: qrencode (Debian) and python-barcode (PyPI).
enum IndependentEncoder {
    /// A PNG of `text` as a QR code (`microQR` for a Micro QR), `scale` pixels a module, `margin` modules of quiet zone.
    static func qrPNG(_ text: String, scale: Int = 4, margin: Int = 4, micro: Bool = false) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-qr-\(UUID().uuidString).png")
        var arguments = ["-o", url.path, "-s", "\(scale)", "-m", "\(margin)"]
        if micro { arguments += ["-M", "-v", "3"] }
        try run("/usr/bin/qrencode", arguments + [text])
        return url
    }

    /// The modules of each text as a 1-D kind of python-barcode ("ean13", "code128" …), '1'
    /// dark; one Python run for all (its start-up is most of the time).
    static func barModules(_ codes: [(kind: String, text: String)]) throws -> [String] {
        let script = "import barcode,sys\nfor k, t in zip(sys.argv[1::2], sys.argv[2::2]): print(''.join(barcode.get(k, t).build()))"
        let lines = try run("/usr/bin/env", ["python3", "-c", script] + codes.flatMap { [$0.kind, $0.text] }).split(separator: "\n").map(String.init)
        guard lines.count == codes.count else { throw CocoaError(.fileReadCorruptFile) }
        return lines
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(tool, arguments)
        guard outcome.succeeded else { throw CocoaError(.executableLoad) }
        return outcome.stdout
    }
}
