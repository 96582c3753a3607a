import Foundation

/// Hears the stages of a photo capture, in Apple's order: will begin, will capture,
/// did capture, did finish processing the photo, did finish the capture. All optional.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?)
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?)
    /// A Live Photo's movie has all its frames (it is not written yet).
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL, resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// A Live Photo's movie is written (or failed, with `error`).
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?)
    /// A deferred photo's proxy (iOS 17): never called on Linux, where deferred delivery is unsupported.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?)
    /// Deprecated (iOS 11): the processed photo as a sample buffer (a pixel buffer, or JPEG
    /// bytes for `AVCapturePhotoOutput.jpegPhotoDataRepresentation(forJPEGSampleBuffer:previewPhotoSampleBuffer:)`).
    /// Called, as on iOS, only for a delegate that does not implement
    /// `photoOutput(_:didFinishProcessingPhoto:error:)`. HEIC photos have no sample-buffer
    /// form: nil, with an error.
    @available(*, deprecated, renamed: "photoOutput(_:didFinishProcessingPhoto:error:)")
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?)
    /// Deprecated (iOS 11): the raw photo as a sample buffer, for
    /// `AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer:previewPhotoSampleBuffer:)`.
    /// Called only for a delegate that does not implement `photoOutput(_:didFinishProcessingPhoto:error:)`.
    @available(*, deprecated, renamed: "photoOutput(_:didFinishProcessingPhoto:error:)")
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?)
}

extension AVCapturePhotoCaptureDelegate {
    public func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: (any Error)?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {}
    public func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: (any Error)?
    ) {}
}

// The deprecated context lets the default call the deprecated callbacks without a warning.
@available(*, deprecated)
extension AVCapturePhotoCaptureDelegate {
    /// By default a photo goes to the deprecated sample-buffer callbacks, so a delegate
    /// written for iOS 10 gets its photos; one implementing this method gets only this, as
    /// on iOS.
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        let preview = photo.previewSampleBuffer
        if photo.isRawPhoto {
            let buffer = error == nil ? photo.rawSampleBuffer : nil
            let failure = error ?? (buffer == nil ? AVError(.unknown, "The raw photo has no sample buffer") : nil)
            photoOutput(
                output, didFinishProcessingRawPhoto: buffer, previewPhoto: preview, resolvedSettings: photo.resolvedSettings,
                bracketSettings: photo.bracketSettings, error: failure)
        } else {
            let buffer = error == nil ? photo.processedSampleBuffer : nil
            let failure = error ?? (buffer == nil
                ? AVError(.unknown, "A \(photo.source?.codec.rawValue ?? "failed") photo has no sample buffer; implement photoOutput(_:didFinishProcessingPhoto:error:)") : nil)
            photoOutput(
                output, didFinishProcessingPhoto: buffer, previewPhoto: preview, resolvedSettings: photo.resolvedSettings,
                bracketSettings: photo.bracketSettings, error: failure)
        }
    }
}
