import Foundation

/// One photo request from `capturePhoto(with:delegate:)` to the delegate's last callback.
///
/// Delegate callbacks run on the output's serial callback queue, in Apple's order; the
/// delegate is held weakly, as on iOS (keep your delegate alive until
/// `didFinishCaptureFor` arrives).
final class PhotoCapture: @unchecked Sendable {
    private let output: AVCapturePhotoOutput
    private let settings: AVCapturePhotoSettings
    private let plan: PhotoPlan
    private weak var delegate: (any AVCapturePhotoCaptureDelegate)?
    /// The expected processing time from the output's earlier captures of this kind.
    private let processingEstimate: CMTimeRange

    /// The auto flash fires when the camera needs this much gain or more to expose the scene.
    static let autoFlashISO: Float = 400
    /// Frames a `.quality` photo fuses (multi-frame noise reduction: noise falls by half);
    /// `.speed` and `.balanced` take one (they differ in compression effort and quality).
    static let qualityFrames = 4

    init(
        output: AVCapturePhotoOutput, settings: AVCapturePhotoSettings, plan: PhotoPlan, delegate: any AVCapturePhotoCaptureDelegate,
        processingEstimate: CMTimeRange
    ) {
        self.output = output
        self.settings = settings
        self.plan = plan
        self.delegate = delegate
        self.processingEstimate = processingEstimate
    }

    func run() {
        let flash: Bool
        switch plan.flashMode {
        case .off: flash = false
        case .on: flash = true
        case .auto: flash = plan.device.lastFrameMetadata.iso >= Self.autoFlashISO
        }
        let size = CMVideoDimensions(width: Int32(plan.width), height: Int32(plan.height)), none = CMVideoDimensions(width: 0, height: 0)
        let resolved = AVCaptureResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: plan.processed ? size : none,
            isFlashEnabled: flash, embeddedThumbnailDimensions: plan.thumbnail?.size ?? none,
            previewDimensions: plan.preview?.size ?? none, rawPhotoDimensions: plan.raw ? size : none,
            expectedPhotoCount: (plan.raw ? 1 : 0) + (plan.processed ? 1 : 0), photoProcessingTimeRange: processingEstimate)
        let queue = output.callbackQueue
        queue.async { [self] in
            delegate?.photoOutput(output, willBeginCaptureFor: resolved)
            delegate?.photoOutput(output, willCapturePhotoFor: resolved)
        }
        guard let camera = plan.device.backend as? StillCapturing else {
            finish(resolved, photo: nil, error: AVError(.unknown, "\(plan.device.localizedName) cannot take still photos"))
            return
        }
        let request = StillRequest(
            width: plan.width, height: plan.height, pixelFormat: stillFormat, flash: flash, raw: plan.raw,
            fusedFrames: settings.photoQualityPrioritization == .quality ? Self.qualityFrames : 1)
        camera.captureStill(request) { [self] result in
            let exposed = ContinuousClock.now
            queue.async { [self] in
                output.captureDidExpose(settings.uniqueID)
                delegate?.photoOutput(output, didCapturePhotoFor: resolved)
                switch result {
                case .success(let still):
                    plan.device.record(still.metadata)
                    let file = PhotoFile(still: still, plan: plan, settings: settings)
                    let preview = plan.preview.flatMap { PhotoDerivatives.scaled(still.buffer, to: $0.size, format: $0.format) }
                    let time = still.metadata.presentationTime
                    var photos: [(AVCapturePhoto, (any Error)?)] = []
                    if plan.raw {
                        // As on iOS, the raw photo comes first.
                        var dng: Data?, failure: (any Error)?
                        do { dng = try file.dng(still.raw) } catch { failure = error }
                        let photo = AVCapturePhoto(
                            fileData: dng, pixelBuffer: nil, previewPixelBuffer: preview, timestamp: time, metadata: file.metadata,
                            resolvedSettings: resolved, isRawPhoto: true)
                        photos.append((photo, failure))
                    }
                    if plan.processed {
                        let photo = AVCapturePhoto(
                            fileData: file.fileData, source: file.source, pixelBuffer: plan.compressed ? nil : still.buffer,
                            previewPixelBuffer: preview, timestamp: time, metadata: file.metadata, resolvedSettings: resolved)
                        photos.append((photo, file.error))
                    }
                    output.recordProcessingTime(ContinuousClock.now - exposed, for: settings)
                    finishOnQueue(resolved, photos: photos)
                case .failure(let failure):
                    finishOnQueue(resolved, photo: nil, error: AVError(.unknown, "The photo could not be taken: \(failure)"))
                }
            }
        }
    }

    /// JPEG and HEIC start from full-range 4:2:0, which is what they store.
    private var stillFormat: PixelFormat { plan.compressed ? .yuv420BiPlanarFullRange : plan.pixelFormat }

    private func finish(_ resolved: AVCaptureResolvedPhotoSettings, photo: AVCapturePhoto?, error: (any Error)?) {
        output.callbackQueue.async { [self] in
            output.captureDidExpose(settings.uniqueID)
            delegate?.photoOutput(output, didCapturePhotoFor: resolved)
            finishOnQueue(resolved, photo: photo, error: error)
        }
    }

    private func finishOnQueue(_ resolved: AVCaptureResolvedPhotoSettings, photo: AVCapturePhoto?, error: (any Error)?) {
        let delivered = photo ?? AVCapturePhoto(fileData: nil, pixelBuffer: nil, timestamp: .invalid, metadata: [:], resolvedSettings: resolved)
        finishOnQueue(resolved, photos: [(delivered, error)])
    }

    /// Delivers each photo with its error, then ends the capture with the first error.
    private func finishOnQueue(_ resolved: AVCaptureResolvedPhotoSettings, photos: [(AVCapturePhoto, (any Error)?)]) {
        for (photo, error) in photos { delegate?.photoOutput(output, didFinishProcessingPhoto: photo, error: error) }
        delegate?.photoOutput(output, didFinishCaptureFor: resolved, error: photos.lazy.compactMap(\.1).first)
        output.captureDidFinish(settings.uniqueID)
    }
}
