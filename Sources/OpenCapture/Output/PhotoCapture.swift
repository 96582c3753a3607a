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
    /// The quality the capture gets (fast capture prioritization may have lowered it).
    private let quality: AVCapturePhotoOutput.QualityPrioritization
    private let fastCapturePrioritized: Bool
    /// The Live Photo movie, when the settings ask for one; begun at `prepare`.
    private var movie: LivePhotoMovie?
    /// The identifier the still and its movie share.
    private let contentIdentifier: String?
    /// The stills taken so far and what to do when all are in (only on the callback queue).
    private var stills: [Result<StillCapture, BackendError>] = []
    private var stillsDone: (([Result<StillCapture, BackendError>], ContinuousClock.Instant) -> Void)?

    /// The auto flash fires when the camera needs this much gain or more to expose the scene.
    static let autoFlashISO: Float = 400
    /// Frames a `.quality` photo fuses (multi-frame noise reduction: noise falls by half);
    /// `.speed` and `.balanced` take one (they differ in compression effort and quality).
    static let qualityFrames = 4

    init(
        output: AVCapturePhotoOutput, settings: AVCapturePhotoSettings, plan: PhotoPlan, delegate: any AVCapturePhotoCaptureDelegate,
        processingEstimate: CMTimeRange, quality: AVCapturePhotoOutput.QualityPrioritization, fastCapturePrioritized: Bool
    ) {
        self.output = output
        self.settings = settings
        self.plan = plan
        self.delegate = delegate
        self.processingEstimate = processingEstimate
        self.quality = quality
        self.fastCapturePrioritized = fastCapturePrioritized
        contentIdentifier = settings.livePhotoMovieFileURL == nil ? nil : UUID().uuidString
    }

    /// At `capturePhoto` (before a wait for an earlier capture): a Live Photo's movie
    /// starts from the frames of this moment.
    func prepare() {
        guard let url = settings.livePhotoMovieFileURL, let contentIdentifier else { return }
        let movie = LivePhotoMovie(
            url: url, hevc: settings.livePhotoVideoCodecType == .hevc, contentIdentifier: contentIdentifier,
            rotationDegrees: Int(plan.connection.videoRotationAngle), autoTrims: output.isLivePhotoAutoTrimmingEnabled,
            metadata: Self.quickTimeMetadata(settings.auxiliary.livePhotoMovieMetadata))
        if output.livePhotos.begin(movie) {
            self.movie = movie
        } else {
            // The session stopped meanwhile: the capture fails below, with no movie to write.
            movie.fail(AVError(.sessionNotRunning, "Live Photo capture is not running"))
            self.movie = movie
        }
    }

    func run() {
        let flash: Bool
        switch plan.flashMode {
        case .off: flash = false
        case .on: flash = true
        case .auto: flash = plan.device.lastFrameMetadata.iso >= Self.autoFlashISO
        }
        let size = CMVideoDimensions(width: Int32(plan.width), height: Int32(plan.height)), none = CMVideoDimensions(width: 0, height: 0)
        let rawSize = plan.device.descriptor.rawPhotoSizes[settings.rawPhotoPixelFormatType]
            .map { CMVideoDimensions(width: Int32($0.width), height: Int32($0.height)) } ?? size
        // Multi-frame fusion is the simulated cameras' still image stabilization; the
        // deprecated isAutoStillImageStabilizationEnabled = false turns it off.
        let stabilizes = quality == .quality && plan.bracket.isEmpty && settings.auxiliary.autoStillImageStabilization != false && plan.device.simulation != nil
        let fusedFrames = stabilizes ? Self.qualityFrames : 1
        let resolved = AVCaptureResolvedPhotoSettings(
            uniqueID: settings.uniqueID, photoDimensions: plan.processed ? size : none,
            isFlashEnabled: flash, embeddedThumbnailDimensions: plan.thumbnail?.size ?? none,
            previewDimensions: plan.preview?.size ?? none, rawPhotoDimensions: plan.raw ? rawSize : none,
            expectedPhotoCount: ((plan.raw ? 1 : 0) + (plan.processed ? 1 : 0)) * max(plan.bracket.count, 1),
            photoProcessingTimeRange: processingEstimate,
            livePhotoMovieDimensions: movie == nil ? none : output.livePhotoMovieDimensions,
            isFastCapturePrioritizationEnabled: fastCapturePrioritized, fusedFrames: fusedFrames)
        let queue = output.callbackQueue
        queue.async { [self] in
            delegate?.photoOutput(output, willBeginCaptureFor: resolved)
            delegate?.photoOutput(output, willCapturePhotoFor: resolved)
        }
        guard let camera = plan.device.backend as? StillCapturing else {
            if let movie { output.livePhotos.cancel(movie, error: AVError(.unknown, "no still")) }
            finish(resolved, photo: nil, error: AVError(.unknown, "\(plan.device.localizedName) cannot take still photos"))
            return
        }
        var request = StillRequest(
            width: plan.width, height: plan.height, pixelFormat: stillFormat, flash: flash, raw: plan.raw,
            fusedFrames: fusedFrames, zeroShutterLag: output.usesZeroShutterLag(flash: flash) && plan.bracket.isEmpty)
        request.rawPixelFormat = settings.rawPhotoPixelFormatType
        expose(camera, request, resolved) { [self] stills, exposed in
            output.captureDidExpose(settings.uniqueID)
            delegate?.photoOutput(output, didCapturePhotoFor: resolved)
            var photos: [(AVCapturePhoto, (any Error)?)] = []
            for (index, result) in stills.enumerated() {
                switch result {
                case .success(let still):
                    let entry = plan.bracket.isEmpty ? nil : plan.bracket[index]
                    guard deliver(still, resolved, bracket: entry, sequence: entry == nil ? 0 : index + 1, into: &photos) else { return }
                case .failure(let failure):
                    let error = AVError(.unknown, "The photo could not be taken: \(failure)")
                    if let movie { output.livePhotos.cancel(movie, error: error) }
                    finishOnQueue(resolved, photo: nil, error: error)
                    return
                }
            }
            output.recordProcessingTime(ContinuousClock.now - exposed, for: settings)
            finishOnQueue(resolved, photos: photos)
        }
    }

    /// Takes the capture's stills one after another (a bracket's exposures on successive
    /// frames, each with its bias or duration and ISO), then calls `done` on the callback
    /// queue with them in order and the moment the last was exposed.
    private func expose(
        _ camera: any StillCapturing, _ request: StillRequest, _ resolved: AVCaptureResolvedPhotoSettings,
        done: @escaping ([Result<StillCapture, BackendError>], ContinuousClock.Instant) -> Void
    ) {
        stillsDone = done
        take(0, camera: camera, request: request)
    }

    /// Requests exposure `index`; its completion hops to the callback queue for the next.
    private func take(_ index: Int, camera: any StillCapturing, request: StillRequest) {
        var next = request
        next.exposure = plan.bracket.isEmpty ? nil : Self.exposure(plan.bracket[index])
        let count = max(plan.bracket.count, 1)
        camera.captureStill(next) { [self] result in
            let exposed = ContinuousClock.now
            output.callbackQueue.async { [self] in
                stills.append(result)
                if stills.count == count || (try? result.get()) == nil {
                    stillsDone?(stills, exposed)
                    stillsDone = nil
                    stills = []
                } else {
                    take(stills.count, camera: camera, request: request)
                }
            }
        }
    }

    /// The still's exposure for a bracket entry (sentinels: the stream's value).
    static func exposure(_ entry: AVCaptureBracketedStillImageSettings) -> StillExposure? {
        if let auto = entry as? AVCaptureAutoExposureBracketedStillImageSettings {
            let bias = auto.exposureTargetBias
            return .autoBias(bias == AVCaptureDevice.currentExposureTargetBias ? nil : bias)
        }
        if let manual = entry as? AVCaptureManualExposureBracketedStillImageSettings {
            let duration = manual.exposureDuration.isValid ? manual.exposureDuration.seconds : nil
            return .manual(duration: duration, iso: manual.iso == AVCaptureDevice.currentISO ? nil : manual.iso)
        }
        return nil
    }

    /// Makes the raw and processed photos of one still and appends them; false (the capture
    /// already finished with the error) when the still cannot be cropped. On the callback queue.
    private func deliver(
        _ captured: StillCapture, _ resolved: AVCaptureResolvedPhotoSettings, bracket: AVCaptureBracketedStillImageSettings?,
        sequence: Int, into photos: inout [(AVCapturePhoto, (any Error)?)]
    ) -> Bool {
        var still = captured
        if plan.scaleAndCrop > 1 {
            guard let cropped = PhotoDerivatives.scaledAndCropped(still.buffer, by: plan.scaleAndCrop) else {
                finishOnQueue(resolved, photo: nil, error: AVError(.unknown, "The still could not be scaled and cropped"))
                return false
            }
            still.buffer = cropped
        }
        plan.device.record(still.metadata)
        if let movie { output.livePhotos.setStillTime(still.metadata.presentationTime, of: movie) }
        let file = PhotoFile(still: still, plan: plan, settings: settings, quality: quality, contentIdentifier: contentIdentifier)
        let preview = plan.preview.flatMap { PhotoDerivatives.scaled(still.buffer, to: $0.size, format: $0.format) }
        let time = still.metadata.presentationTime
        let sourceDeviceType = plan.device.deviceType
        if plan.raw {
            // As on iOS, the raw photo comes first; its pixel buffer is the mosaic the DNG stores.
            var dng: Data?, failure: (any Error)?
            do { dng = try file.dng(still.raw) } catch { failure = error }
            let photo = AVCapturePhoto(
                fileData: dng, pixelBuffer: still.raw?.mosaic.pixelBuffer(), previewPixelBuffer: preview, timestamp: time,
                metadata: file.metadata, resolvedSettings: resolved, isRawPhoto: true, photoCount: photos.count + 1,
                sourceDeviceType: sourceDeviceType, bracketSettings: bracket, sequenceCount: sequence)
            photos.append((photo, failure))
        }
        if plan.processed {
            let photo = AVCapturePhoto(
                fileData: file.fileData, source: file.source, pixelBuffer: plan.compressed ? nil : still.buffer,
                previewPixelBuffer: preview, timestamp: time, metadata: file.metadata, resolvedSettings: resolved,
                photoCount: photos.count + 1, sourceDeviceType: sourceDeviceType, bracketSettings: bracket, sequenceCount: sequence)
            photos.append((photo, file.error))
        }
        return true
    }

    /// The items of the QuickTime metadata key space with string values, as the movie
    /// writer's key-value pairs (other items have no 'mdta' string form and are left out).
    static func quickTimeMetadata(_ items: [AVMetadataItem]) -> [(String, String)] {
        items.compactMap { item in
            // The identifier is made from the key space and key when not set: "mdta/<key>".
            guard let identifier = item.identifier?.rawValue, identifier.hasPrefix("mdta/"), let value = item.stringValue else { return nil }
            let key = String(identifier.dropFirst(5))
            return (key, value)
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

    /// Delivers each photo with its error, then (for a Live Photo, once its movie is
    /// recorded and written, with those two calls) ends the capture with the first error.
    private func finishOnQueue(_ resolved: AVCaptureResolvedPhotoSettings, photos: [(AVCapturePhoto, (any Error)?)]) {
        for (photo, error) in photos { delegate?.photoOutput(output, didFinishProcessingPhoto: photo, error: error) }
        output.captureDidProcess(settings.uniqueID)
        let photoError = photos.lazy.compactMap(\.1).first
        guard let movie, let url = settings.livePhotoMovieFileURL else {
            delegate?.photoOutput(output, didFinishCaptureFor: resolved, error: photoError)
            output.captureDidFinish(settings.uniqueID)
            return
        }
        let queue = output.callbackQueue
        movie.recorded.notify(queue: queue) { [self] in
            delegate?.photoOutput(output, didFinishRecordingLivePhotoMovieForEventualFileAt: url, resolvedSettings: resolved)
            movie.written.notify(queue: queue) { [self] in
                delegate?.photoOutput(
                    output, didFinishProcessingLivePhotoToMovieFileAt: url, duration: movie.duration,
                    photoDisplayTime: movie.photoDisplayTime, resolvedSettings: resolved, error: movie.error)
                delegate?.photoOutput(output, didFinishCaptureFor: resolved, error: photoError ?? movie.error)
                output.captureDidFinish(settings.uniqueID)
            }
        }
    }
}
