// swift-tools-version: 6.2
import PackageDescription

// No unsafe flags, in any target: SwiftPM refuses a version-based dependency whose targets
// carry them ("contains unsafe build flags"), and treating warnings as errors here would let a
// newer compiler's new warning break a user's build (the Makefile passes it for our own
// builds). The pixel loops that once needed `-O` in debug builds are C kernels
// (CRenderKernels) linked on x86-64 and aarch64 Linux as pre-generated -O3 assembly
// (scripts/generate-render-kernels), so a user's debug build runs them optimised; the cost
// of a debug build without any flags is in docs/PERFORMANCE.md.

let package = Package(
    name: "OpenCapture",
    products: [
        .library(name: "OpenCapture", targets: ["OpenCapture"]),
        // As on Apple platforms, an app that links AVFoundation can also import CoreMedia,
        // CoreVideo, QuartzCore, CoreGraphics, ImageIO and AudioToolbox.
        .library(name: "AVFoundation", targets: ["AVFoundation", "CoreMedia", "CoreVideo", "QuartzCore", "CoreGraphics", "ImageIO", "AudioToolbox"]),
        .library(name: "CoreMedia", targets: ["CoreMedia"]),
        .library(name: "CoreVideo", targets: ["CoreVideo"]),
        .library(name: "QuartzCore", targets: ["QuartzCore"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "AudioToolbox", targets: ["AudioToolbox"]),
        // Live view and remote control in a browser (a Linux addition): CaptureWebServer.
        .library(name: "OpenCaptureWeb", targets: ["OpenCaptureWeb"]),
        .executable(name: "capture", targets: ["capture"]),
        // Face detection for AVCaptureMetadataOutput (OpenCV), a plugin OpenCapture loads with
        // dlopen from beside the program when faces are first asked for (CFaceRuntime). An
        // app that wants faces lists this product too, so SwiftPM builds it.
        .library(name: "OpenCaptureFaceDetector", type: .dynamic, targets: ["OpenCaptureFaceDetector"]),
        // PipeWire cameras and the virtual camera (libpipewire), a plugin loaded the same way
        // (CPipeWireRuntime) when PipeWire is first used; without it there are no PipeWire
        // devices and AVCaptureVirtualCameraOutput cannot be added. An app lists it to get them.
        .library(name: "OpenCapturePipeWire", type: .dynamic, targets: ["OpenCapturePipeWire"]),
        // libcamera cameras (Raspberry Pi camera modules, IPU6 laptops, vimc), a plug-in the
        // libcamera backend loads with dlopen from beside the program (CLibcameraRuntime). An
        // app that wants them lists this product too, so SwiftPM builds it.
        .library(name: "OpenCaptureLibcamera", type: .dynamic, targets: ["OpenCaptureLibcamera"]),
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
        // FFmpeg's headers; nothing linked (no pkgConfig, whose --libs would link it):
        // CFFmpegRuntime loads the libraries on first use, so a program that never writes a
        // movie does not pay for loading the ~135 libraries Debian's FFmpeg depends on.
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev"])]
        ),
        .target(name: "CFFmpegRuntime", dependencies: ["CFFmpeg"], path: "Sources/CFFmpegRuntime"),
        .systemLibrary(
            name: "CHeif",
            path: "Sources/CHeif",
            pkgConfig: "libheif",
            // Debian's libheif1 links x265 for HEVC encoding (and libde265 for decoding).
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CALSA",
            path: "Sources/CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // zxing-cpp reads (and, for simulated scenes, writes) barcodes and 2-D codes. Debian
        // 12's 1.4.0 is C++ only; CBarcode is a small C++ target with a C header, so no Swift
        // target needs C++ interop.
        .systemLibrary(
            name: "CZXing",
            path: "Sources/CZXing",
            pkgConfig: "zxing",
            providers: [.apt(["libzxing-dev"])]
        ),
        .target(name: "CBarcode", dependencies: ["CZXing"], path: "Sources/CBarcode"),
        // OpenCV 4.6 for the face-detector plugin only: its pkg-config file links all 56 OpenCV
        // modules (about 360 libraries with theirs), so only the plugin, loaded on demand by
        // CFaceRuntime, links it. The cascades come from opencv-data.
        .systemLibrary(
            name: "COpenCV",
            path: "Sources/COpenCV",
            pkgConfig: "opencv4",
            providers: [.apt(["libopencv-dev", "opencv-data"])]
        ),
        .target(name: "OpenCaptureFaceDetector", dependencies: ["COpenCV"], path: "Sources/OpenCaptureFaceDetector"),
        // Where a plug-in is: beside the program or library its loader is linked into (the
        // three loaders below).
        .target(name: "CPluginPath", path: "Sources/CPluginPath"),
        .target(name: "CFaceRuntime", dependencies: ["CPluginPath"], path: "Sources/CFaceRuntime"),
        // libpipewire for the PipeWire plugin only (a C target with a plain C API: the SPA pod
        // macros do not import into Swift); CPipeWireRuntime loads it.
        .systemLibrary(
            name: "CPipeWire",
            path: "Sources/CPipeWire",
            pkgConfig: "libpipewire-0.3",
            providers: [.apt(["libpipewire-0.3-dev"])]
        ),
        // libsystemd's sd-bus for the same plug-in only: the Camera portal (sandboxed apps).
        .systemLibrary(
            name: "CSystemd",
            path: "Sources/CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(name: "OpenCapturePipeWire", dependencies: ["CPipeWire", "CSystemd"], path: "Sources/OpenCapturePipeWire"),
        .target(name: "CPipeWireRuntime", dependencies: ["CPluginPath"], path: "Sources/CPipeWireRuntime"),
        // libcamera (0.0.3 on Debian 12) for the libcamera plug-in only: its C++ API stays in
        // that C++ target, behind a C header; CLibcameraRuntime loads it on demand.
        .systemLibrary(
            name: "CLibcamera",
            path: "Sources/CLibcamera",
            pkgConfig: "libcamera",
            providers: [.apt(["libcamera-dev"])]
        ),
        .target(name: "OpenCaptureLibcamera", dependencies: ["CLibcamera"], path: "Sources/OpenCaptureLibcamera"),
        .target(name: "CLibcameraRuntime", dependencies: ["CPluginPath"], path: "Sources/CLibcameraRuntime"),
        .target(name: "CAllocCounter", path: "Sources/CAllocCounter"),
        .target(name: "CV4L2", path: "Sources/CV4L2"),
        .target(name: "CAffinity", path: "Sources/CAffinity"),
        // The command-line tool's Ctrl-C and SIGTERM through a pipe (capture's SignalWatcher).
        .target(name: "CSignalPipe", path: "Sources/CSignalPipe"),
        .target(name: "CRenderKernels", path: "Sources/CRenderKernels"),
        .target(name: "ColorScience"),
        .target(name: "CaptureCore"),
        .target(name: "QuartzCore"),
        .target(name: "ImageOps", dependencies: ["CaptureCore", "CYUV", "CRenderKernels"]),
        .target(
            name: "SimulatedCamera",
            dependencies: ["CaptureCore", "ColorScience", "ImageOps", "CRenderKernels", "CAffinity", "CBarcode"]
        ),
        // ALSA capture PCMs: discovery, hot-plug and streaming (the real microphones).
        .target(name: "ALSAAudio", dependencies: ["CaptureCore", "CALSA"]),
        .target(name: "MediaIO", dependencies: ["CaptureCore", "ImageOps", "CRenderKernels", "CTurboJPEG", "CFFmpeg", "CFFmpegRuntime", "CPNG", "CHeif"]),
        .target(
            name: "V4L2Camera",
            dependencies: ["CaptureCore", "ColorScience", "CV4L2", "CYUV", "CTurboJPEG", "ImageOps"]
        ),
        // libcamera cameras through the plug-in (CLibcameraRuntime loads it), frames converted
        // as V4L2's are.
        .target(name: "LibcameraCamera", dependencies: ["CaptureCore", "CLibcameraRuntime", "ColorScience", "V4L2Camera"]),
        // PipeWire's cameras through the plug-in (CPipeWireRuntime loads it), frames converted
        // as V4L2's are.
        .target(name: "PipeWireCamera", dependencies: ["CaptureCore", "CPipeWireRuntime", "V4L2Camera"]),
        .target(name: "FileDeck", dependencies: ["CaptureCore", "ImageOps", "MediaIO"]),
        .target(
            name: "OpenCapture",
            dependencies: ["ALSAAudio", "CaptureCore", "ColorScience", "CRenderKernels", "FileDeck", "ImageOps", "MediaIO", "QuartzCore", "SimulatedCamera", "V4L2Camera", "LibcameraCamera", "CBarcode", "CFaceRuntime", "PipeWireCamera", "CPipeWireRuntime"]
        ),
        // The CG types live in QuartzCore (see Sources/CoreGraphics); ImageIO's orientation and
        // property keys are reached from AVFoundation too, as Apple's reaches them (CoreImage).
        .target(name: "CoreGraphics", dependencies: ["QuartzCore", "_Testing_CoreGraphics"]),
        // What the toolchain's Testing/CoreGraphics cross-import loads (see the file).
        .target(name: "_Testing_CoreGraphics"),
        .target(name: "ImageIO", dependencies: ["CaptureCore", "CoreGraphics"]),
        // System Sound Services: sound files decoded by FFmpeg (MediaIO), played through ALSA.
        .target(name: "AudioToolbox", dependencies: ["ALSAAudio", "CaptureCore", "MediaIO"]),
        .target(name: "AVFoundation", dependencies: ["OpenCapture", "ImageIO", "AudioToolbox"]),
        .target(name: "CoreMedia", dependencies: ["OpenCapture"]),
        .target(name: "CoreVideo", dependencies: ["OpenCapture"]),
        .target(name: "OpenCaptureWeb", dependencies: ["OpenCapture", "CaptureCore", "MediaIO", "CMicroHTTPD"]),
        .executableTarget(
            name: "capture",
            dependencies: ["OpenCapture", "OpenCaptureWeb", "CaptureCore", "MediaIO", "CAllocCounter", "CAffinity", "CRenderKernels", "CSignalPipe", "V4L2Camera", "CYUV"]
        ),
        .executableTarget(
            name: "CaptureWalkthrough",
            // OpenCapture is listed too so a change to it rebuilds the example: the example
            // reaches it only through AVFoundation's re-export, which SwiftPM did not track.
            dependencies: ["AVFoundation", "OpenCapture"],
            path: "Examples/CaptureWalkthrough"
        ),
        .executableTarget(
            name: "HighestFrameRate",
            dependencies: ["AVFoundation", "OpenCapture"],
            path: "Examples/HighestFrameRate"
        ),
        // Tests: one target per library module, and the helpers they share (waits, sinks).
        .target(name: "TestSupport", dependencies: ["CaptureCore"], path: "Tests/TestSupport"),
        .testTarget(name: "CaptureCoreTests", dependencies: ["CaptureCore"]),
        .testTarget(name: "ColorScienceTests", dependencies: ["ColorScience"]),
        .testTarget(name: "ImageOpsTests", dependencies: ["ImageOps", "CaptureCore", "TestSupport"]),
        .testTarget(
            name: "SimulatedCameraTests",
            dependencies: ["SimulatedCamera", "CaptureCore", "ColorScience", "CRenderKernels", "CAffinity", "TestSupport"]
        ),
        .testTarget(name: "OpenCaptureTests", dependencies: ["OpenCapture", "CaptureCore", "ColorScience", "FileDeck", "MediaIO", "SimulatedCamera", "TestSupport", "ImageIO"]),
        .testTarget(name: "CLITests", dependencies: ["OpenCapture", "MediaIO", "TestSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO", "CaptureCore", "TestSupport"]),
        .testTarget(name: "OpenCaptureWebTests", dependencies: ["OpenCaptureWeb", "OpenCapture", "MediaIO", "CaptureCore", "TestSupport"]),
        .testTarget(name: "ALSATests", dependencies: ["ALSAAudio", "CALSA", "CaptureCore", "OpenCapture", "TestSupport"]),
        .testTarget(name: "AudioToolboxTests", dependencies: ["AudioToolbox", "ALSAAudio", "CaptureCore", "TestSupport"]),
        .testTarget(name: "V4L2Tests", dependencies: ["OpenCapture", "V4L2Camera", "LibcameraCamera", "CLibcameraRuntime", "ColorScience", "MediaIO", "CaptureCore", "TestSupport"]),
        .testTarget(name: "PipeWireTests", dependencies: ["PipeWireCamera", "CPipeWireRuntime", "OpenCapture", "CaptureCore", "TestSupport"]),
        // iOS code as written for Apple's SDK: one file per header, touching each declaration
        // with Apple's spelling. Only the modules the AVFoundation product gives an app, and
        // no @testable import, so it compiles exactly what an app sees.
        .testTarget(
            name: "AppleSpellingTests", dependencies: ["AVFoundation", "CoreMedia", "CoreVideo", "QuartzCore", "CoreGraphics", "ImageIO", "AudioToolbox"],
            exclude: ["README.md"]),
    ],
    swiftLanguageModes: [.v6]
)
