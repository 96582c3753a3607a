import Foundation
import ImageOps
import MediaIO
import Synchronization

/// What `generateCGImagesAsynchronously(forTimes:completionHandler:)` hands each requested
/// time: the requested time, the image, the time it shows, the result and an error.
public typealias AVAssetImageGeneratorCompletionHandler =
    @Sendable (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, (any Error)?) -> Void

/// Still images of an asset's video at chosen times (AVAssetImageGenerator.h): thumbnails
/// after a recording, a poster frame, a scrubbing strip.
///
/// Each image is decoded from the asset's first video track (FFmpeg, as `AVAssetReader`
/// does) at the frame shown at the requested time: with the default infinite tolerances
/// `actualTime` is that frame's presentation time; when the tolerances do not reach it, the
/// frame is still the one on screen then and `actualTime` is the requested time, as for
/// Apple's frame-accurate generation. Past the end the last frame answers within
/// `requestedTimeToleranceBefore`, before the start the first within
/// `requestedTimeToleranceAfter`; otherwise, and for an asset without video, the request
/// fails with `AVError.noImageAtTime` ("Cannot Open"). Images are 8-bit sRGB, turned by the
/// track's transform when `appliesPreferredTrackTransform`, and shrunk to fit
/// `maximumSize`. Asynchronous requests run in order on the generator's own queue
/// ("OpenCapture.AVAssetImageGenerator"), where their handlers are called.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    /// How an asynchronous request ended.
    public enum Result: Int, Sendable {
        case succeeded = 0
        case failed = 1
        case cancelled = 2
    }

    /// Which part of the picture an image shows (AVAssetImageGeneratorApertureMode).
    public struct ApertureMode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The clean aperture, scaled to the pixel aspect ratio.
        public static let cleanAperture = ApertureMode(rawValue: "CleanAperture")
        /// The whole picture, scaled to the pixel aspect ratio.
        public static let productionAperture = ApertureMode(rawValue: "ProductionAperture")
        /// The encoded pixels as they are.
        public static let encodedPixels = ApertureMode(rawValue: "EncodedPixels")
    }

    struct Settings {
        var appliesPreferredTrackTransform = false
        var maximumSize = CGSize.zero
        var apertureMode: ApertureMode? = .cleanAperture
        var toleranceBefore = CMTime.positiveInfinity
        var toleranceAfter = CMTime.positiveInfinity
    }

    private let storedAsset: AVAsset
    /// The asset images are made from.
    open var asset: AVAsset { storedAsset }
    let settings = Mutex(Settings())
    /// Bumped by `cancelAllCGImageGeneration()`: requests queued under an older value end
    /// as cancelled.
    let generation = Atomic<Int>(0)
    let queue = DispatchQueue(label: "OpenCapture.AVAssetImageGenerator")

    /// A generator for `asset`'s video.
    public init(asset: AVAsset) {
        storedAsset = asset
        super.init()
    }

    /// Whether images are turned as the track's `preferredTransform` says (default false:
    /// the pictures as stored).
    open var appliesPreferredTrackTransform: Bool {
        get { settings.withLock { $0.appliesPreferredTrackTransform } }
        set { settings.withLock { $0.appliesPreferredTrackTransform = newValue } }
    }

    /// The largest image made: a larger picture is shrunk to fit, keeping its shape
    /// (default `.zero`, no limit; a zero side does not limit that side).
    open var maximumSize: CGSize {
        get { settings.withLock { $0.maximumSize } }
        set { settings.withLock { $0.maximumSize = newValue } }
    }

    /// The aperture images show (default `.cleanAperture`). Files written here carry no
    /// clean aperture or pixel aspect ratio, so every mode shows the encoded pixels.
    open var apertureMode: ApertureMode? {
        get { settings.withLock { $0.apertureMode } }
        set { settings.withLock { $0.apertureMode = newValue } }
    }

    /// How much earlier than the requested time the image may be (default infinite; zero
    /// for the frame on screen at that time).
    open var requestedTimeToleranceBefore: CMTime {
        get { settings.withLock { $0.toleranceBefore } }
        set { settings.withLock { $0.toleranceBefore = newValue } }
    }

    /// How much later than the requested time the image may be (default infinite).
    open var requestedTimeToleranceAfter: CMTime {
        get { settings.withLock { $0.toleranceAfter } }
        set { settings.withLock { $0.toleranceAfter = newValue } }
    }

    /// The image at a time, on the caller's thread (deprecated in iOS 18 for `image(at:)`).
    @available(*, deprecated, message: "Use image(at:) instead")
    open func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let (image, time) = try makeImage(at: requestedTime)
        actualTime?.pointee = time
        return image
    }

    /// The image at a time and the time it shows.
    open func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        try await withCheckedThrowingContinuation { continuation in
            generateCGImageAsynchronously(for: time) { image, actual, error in
                if let image { continuation.resume(returning: (image, actual)) } else { continuation.resume(throwing: error ?? Self.noImage) }
            }
        }
    }

    /// Makes the image at a time on the generator's queue and calls `handler` there with the
    /// image and its time, or nil and the error (a cancelled request: `AVError.operationCancelled`).
    open func generateCGImageAsynchronously(for requestedTime: CMTime, completionHandler handler: @escaping @Sendable (CGImage?, CMTime, (any Error)?) -> Void) {
        let issued = generation.load(ordering: .acquiring)
        queue.async { [self] in
            guard generation.load(ordering: .acquiring) == issued else {
                handler(nil, requestedTime, AVError(.operationCancelled, "Operation Stopped"))
                return
            }
            do {
                let (image, actual) = try makeImage(at: requestedTime)
                handler(image, actual, nil)
            } catch {
                handler(nil, requestedTime, error)
            }
        }
    }

    /// Makes the image at each time, in order, on the generator's queue, calling `handler`
    /// there for each with its result.
    open func generateCGImagesAsynchronously(forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler) {
        let issued = generation.load(ordering: .acquiring)
        let times = requestedTimes.map(\.timeValue)
        queue.async { [self] in
            for time in times {
                guard generation.load(ordering: .acquiring) == issued else {
                    handler(time, nil, .zero, .cancelled, nil)
                    continue
                }
                do {
                    let (image, actual) = try makeImage(at: time)
                    handler(time, image, actual, .succeeded, nil)
                } catch {
                    handler(time, nil, .zero, .failed, error)
                }
            }
        }
    }

    /// Ends the requests not yet made: their handlers are called with `.cancelled`.
    open func cancelAllCGImageGeneration() {
        generation.add(1, ordering: .acquiringAndReleasing)
    }

    /// The images at `times`, in order, as an asynchronous sequence.
    open func images(for times: [CMTime]) -> Images { Images(generator: self, times: times) }

    static var noImage: AVError { AVError(.noImageAtTime, "Cannot Open") }
}

extension AVAssetImageGenerator {
    /// The images of `images(for:)`: an asynchronous sequence and its own iterator.
    public struct Images: AsyncSequence, AsyncIteratorProtocol, Sendable {
        /// One request's result.
        public enum Element: Sendable {
            case success(requestedTime: CMTime, image: CGImage, actualTime: CMTime)
            case failure(requestedTime: CMTime, error: any Error)

            /// The time asked for.
            public var requestedTime: CMTime {
                switch self {
                case .success(let time, _, _), .failure(let time, _): time
                }
            }

            /// The image; throws the request's error when it failed.
            public var image: CGImage {
                get throws {
                    switch self {
                    case .success(_, let image, _): return image
                    case .failure(_, let error): throw error
                    }
                }
            }

            /// The time the image shows; throws the request's error when it failed.
            public var actualTime: CMTime {
                get throws {
                    switch self {
                    case .success(_, _, let time): return time
                    case .failure(_, let error): throw error
                    }
                }
            }
        }

        let generator: AVAssetImageGenerator
        var times: ArraySlice<CMTime>

        init(generator: AVAssetImageGenerator, times: [CMTime]) {
            self.generator = generator
            self.times = times[...]
        }

        public func makeAsyncIterator() -> Images { self }

        public mutating func next() async -> Element? {
            guard let time = times.popFirst() else { return nil }
            do {
                let (image, actual) = try await generator.image(at: time)
                return .success(requestedTime: time, image: image, actualTime: actual)
            } catch {
                return .failure(requestedTime: time, error: error)
            }
        }
    }
}
