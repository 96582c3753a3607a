import Foundation

/// The timing of one sample, as CMSampleBuffer.h's `CMSampleTimingInfo`.
public struct CMSampleTimingInfo: Sendable, Hashable {
    /// How long the sample lasts.
    public var duration: CMTime
    /// When the sample is presented.
    public var presentationTimeStamp: CMTime
    /// When the sample is decoded (invalid for capture: decode order is presentation order).
    public var decodeTimeStamp: CMTime

    /// All three times invalid (`kCMTimingInfoInvalid`).
    public init() {
        self.init(duration: .invalid, presentationTimeStamp: .invalid, decodeTimeStamp: .invalid)
    }

    /// Timing from its three times.
    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {
        self.duration = duration
        self.presentationTimeStamp = presentationTimeStamp
        self.decodeTimeStamp = decodeTimeStamp
    }

    /// All three times invalid.
    public static let invalid = CMSampleTimingInfo()
}

/// All three times invalid.
public let kCMTimingInfoInvalid = CMSampleTimingInfo.invalid

/// An allocation failed. The corresponding C constant is `kCMSampleBufferError_AllocationFailed`.
public let kCMSampleBufferError_AllocationFailed: OSStatus = -12730
/// A required parameter was missing.
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// The sample buffer already has a data buffer.
public let kCMSampleBufferError_AlreadyHasDataBuffer: OSStatus = -12732
/// The data is not ready.
public let kCMSampleBufferError_BufferNotReady: OSStatus = -12733
/// The sample index is out of range.
public let kCMSampleBufferError_SampleIndexOutOfRange: OSStatus = -12734
/// The sample buffer has no sample sizes.
public let kCMSampleBufferError_BufferHasNoSampleSizes: OSStatus = -12735
/// The sample buffer has no timing.
public let kCMSampleBufferError_BufferHasNoSampleTimingInfo: OSStatus = -12736
/// The array given was too small.
public let kCMSampleBufferError_ArrayTooSmall: OSStatus = -12737
/// The entry count is invalid.
public let kCMSampleBufferError_InvalidEntryCount: OSStatus = -12738
/// The sample buffer cannot be subdivided.
public let kCMSampleBufferError_CannotSubdivide: OSStatus = -12739
/// The timing is invalid.
public let kCMSampleBufferError_SampleTimingInfoInvalid: OSStatus = -12740
/// The media type does not allow the operation.
public let kCMSampleBufferError_InvalidMediaTypeForOperation: OSStatus = -12741
/// The sample data is invalid.
public let kCMSampleBufferError_InvalidSampleData: OSStatus = -12742
/// The format description does not match.
public let kCMSampleBufferError_InvalidMediaFormat: OSStatus = -12743
/// The sample buffer was invalidated.
public let kCMSampleBufferError_Invalidated: OSStatus = -12744
/// Making the data ready failed.
public let kCMSampleBufferError_DataFailed: OSStatus = -16750
/// Making the data ready was cancelled.
public let kCMSampleBufferError_DataCanceled: OSStatus = -16751
