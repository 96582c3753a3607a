// swift-tools-version: 6.0
import PackageDescription

/// Warnings are errors in our own code: the project builds with none.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"]),
]

/// Pixel loops are optimised in debug builds too: unoptimised, the simulated camera cannot
/// keep real time and the test suite would crawl.
let optimisedPixels: [SwiftSetting] = strict + [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]

let package = Package(
    name: "OpenCapture",
    products: [
        .library(name: "OpenCapture", targets: ["OpenCapture"]),
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        .library(name: "CoreMedia", targets: ["CoreMedia"]),
        .library(name: "CoreVideo", targets: ["CoreVideo"]),
        .executable(name: "capture", targets: ["capture"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYUV",
            path: "Sources/CYUV",
            providers: [.apt(["libyuv-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libx264-dev"])]
        ),
        .target(name: "CAllocCounter", path: "Sources/CAllocCounter"),
        .target(name: "CV4L2", path: "Sources/CV4L2"),
        .target(name: "CAffinity", path: "Sources/CAffinity"),
        // The renderer's pixel loops: optimised in every configuration, as the Swift ones are.
        .target(name: "CRenderKernels", path: "Sources/CRenderKernels", cSettings: [.unsafeFlags(["-O3"])]),
        .target(name: "ColorScience", swiftSettings: strict),
        .target(name: "CaptureCore", swiftSettings: strict),
        .target(name: "ImageOps", dependencies: ["CaptureCore", "CYUV"], swiftSettings: optimisedPixels),
        .target(
            name: "SimulatedCamera",
            dependencies: ["CaptureCore", "ColorScience", "ImageOps", "CRenderKernels", "CAffinity"],
            swiftSettings: optimisedPixels
        ),
        .target(name: "MediaIO", dependencies: ["CaptureCore", "ImageOps", "CTurboJPEG", "CFFmpeg", "CPNG"], swiftSettings: optimisedPixels),
        .target(
            name: "V4L2Camera",
            dependencies: ["CaptureCore", "ColorScience", "CV4L2", "CYUV", "CTurboJPEG"],
            swiftSettings: optimisedPixels
        ),
        .target(
            name: "OpenCapture",
            dependencies: ["CaptureCore", "ColorScience", "ImageOps", "MediaIO", "SimulatedCamera", "V4L2Camera"],
            swiftSettings: strict
        ),
        .target(name: "AVFoundation", dependencies: ["OpenCapture"], swiftSettings: strict),
        .target(name: "CoreMedia", dependencies: ["OpenCapture"], swiftSettings: strict),
        .target(name: "CoreVideo", dependencies: ["OpenCapture"], swiftSettings: strict),
        .executableTarget(
            name: "capture",
            dependencies: ["OpenCapture", "CaptureCore", "MediaIO", "CAllocCounter", "CAffinity", "CRenderKernels", "V4L2Camera", "CYUV"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CaptureWalkthrough",
            // OpenCapture is listed too so a change to it rebuilds the example: the example
            // reaches it only through AVFoundation's re-export, which SwiftPM did not track.
            dependencies: ["AVFoundation", "OpenCapture"],
            path: "Examples/CaptureWalkthrough",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "HighestFrameRate",
            dependencies: ["AVFoundation", "OpenCapture"],
            path: "Examples/HighestFrameRate",
            swiftSettings: strict
        ),
        // Tests: one target per library module, and the helpers they share (waits, sinks).
        .target(name: "TestSupport", dependencies: ["CaptureCore"], path: "Tests/TestSupport"),
        .testTarget(name: "CaptureCoreTests", dependencies: ["CaptureCore"]),
        .testTarget(name: "ColorScienceTests", dependencies: ["ColorScience"]),
        .testTarget(name: "ImageOpsTests", dependencies: ["ImageOps", "CaptureCore"]),
        .testTarget(
            name: "SimulatedCameraTests",
            dependencies: ["SimulatedCamera", "CaptureCore", "ColorScience", "CRenderKernels", "CAffinity", "TestSupport"]
        ),
        .testTarget(name: "OpenCaptureTests", dependencies: ["OpenCapture", "CaptureCore", "SimulatedCamera", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["OpenCapture", "MediaIO", "TestSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "CaptureCore"]),
        .testTarget(name: "V4L2Tests", dependencies: ["OpenCapture", "V4L2Camera", "MediaIO", "CaptureCore"]),
    ],
    swiftLanguageModes: [.v6]
)
