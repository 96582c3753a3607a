import Foundation

// CMSampleBuffer.h's per-sample attachments: one mutable dictionary per sample, made on the
// first CMSampleBufferGetSampleAttachmentsArray(_, createIfNecessary: true). Capture buffers
// have none until an app asks, as Apple's camera buffers, so a frame nobody inspects costs
// nothing; a recycled buffer drops the last frame's dictionaries. The C function and the
// Swift overlay (`sampleAttachments`) read and write the same dictionaries.

/// The per-sample attachment dictionaries of one sample buffer. It is the `CFArray` apps
/// get, and it hands out the stored dictionaries themselves (a plain `NSArray` on Linux
/// bridges an `NSMutableDictionary` element to a Swift copy), so mutating one is seen by
/// the next call.
final class CMSampleAttachmentsArrayStorage: NSArray {
    let dictionaries: [NSMutableDictionary]

    init(sampleCount: Int) {
        dictionaries = (0..<Swift.max(sampleCount, 0)).map { _ in NSMutableDictionary() }
        super.init()
    }

    required init(objects: UnsafePointer<AnyObject>?, count cnt: Int) {
        dictionaries = (0..<cnt).map { index in
            objects?[index] as? NSMutableDictionary ?? NSMutableDictionary()
        }
        super.init()
    }

    required convenience init(arrayLiteral elements: Any...) {
        self.init(sampleCount: elements.count)
    }

    required init?(coder aDecoder: NSCoder) { nil }

    override var count: Int { dictionaries.count }
    override func object(at index: Int) -> Any { dictionaries[index] }
}

/// The per-sample attachment dictionaries, or nil (`CMSampleBufferGetSampleAttachmentsArray`).
///
/// With `createIfNecessary` true, a buffer without them gets one empty mutable dictionary
/// per sample (none for a buffer of no samples); with false, such a buffer gives nil.
/// Changes to a dictionary (through `NSMutableDictionary`, `CFDictionarySetValue` or
/// `sampleAttachments`) are kept by the buffer and seen by later calls. An invalidated
/// buffer gives nil.
public func CMSampleBufferGetSampleAttachmentsArray(_ sbuf: CMSampleBuffer, createIfNecessary: Bool) -> CFArray? {
    sbuf.sampleAttachmentsStorage(create: createIfNecessary)
}

extension CMSampleBuffer {
    /// The buffer's per-sample dictionaries, made when `create` and missing.
    func sampleAttachmentsStorage(create: Bool) -> CMSampleAttachmentsArrayStorage? {
        withState { state in
            guard !state.invalidated else { return nil }
            if let existing = state.sampleAttachments { return existing }
            guard create else { return nil }
            let samples = state.numSamples
            let made = CMSampleAttachmentsArrayStorage(sampleCount: samples)
            state.sampleAttachments = made
            return made
        }
    }

    /// The attachments of one sample, as the Swift overlay's
    /// `CMSampleBuffer.PerSampleAttachmentsDictionary`: a view of the dictionary the buffer
    /// keeps, so setting a value changes the buffer's attachments.
    public struct PerSampleAttachmentsDictionary: Sequence {
        /// A per-sample attachment key (a `kCMSampleAttachmentKey_*` string).
        public struct Key: RawRepresentable, Hashable, @unchecked Sendable {
            public let rawValue: CFString
            public init(rawValue: CFString) { self.rawValue = rawValue }

            /// `kCMSampleAttachmentKey_NotSync`.
            public static let notSync = Key(rawValue: kCMSampleAttachmentKey_NotSync)
            /// `kCMSampleAttachmentKey_PartialSync`.
            public static let partialSync = Key(rawValue: kCMSampleAttachmentKey_PartialSync)
            /// `kCMSampleAttachmentKey_HasRedundantCoding`.
            public static let hasRedundantCoding = Key(rawValue: kCMSampleAttachmentKey_HasRedundantCoding)
            /// `kCMSampleAttachmentKey_IsDependedOnByOthers`.
            public static let isDependedOnByOthers = Key(rawValue: kCMSampleAttachmentKey_IsDependedOnByOthers)
            /// `kCMSampleAttachmentKey_DependsOnOthers`.
            public static let dependsOnOthers = Key(rawValue: kCMSampleAttachmentKey_DependsOnOthers)
            /// `kCMSampleAttachmentKey_EarlierDisplayTimesAllowed`.
            public static let earlierDisplayTimesAllowed = Key(rawValue: kCMSampleAttachmentKey_EarlierDisplayTimesAllowed)
            /// `kCMSampleAttachmentKey_DisplayImmediately`.
            public static let displayImmediately = Key(rawValue: kCMSampleAttachmentKey_DisplayImmediately)
            /// `kCMSampleAttachmentKey_DoNotDisplay`.
            public static let doNotDisplay = Key(rawValue: kCMSampleAttachmentKey_DoNotDisplay)
            /// `kCMSampleAttachmentKey_HEVCTemporalLevelInfo`.
            public static let hevcTemporalLevelInfo = Key(rawValue: kCMSampleAttachmentKey_HEVCTemporalLevelInfo)
            /// `kCMSampleAttachmentKey_HEVCTemporalSubLayerAccess`.
            public static let hevcTemporalSubLayerAccess = Key(rawValue: kCMSampleAttachmentKey_HEVCTemporalSubLayerAccess)
            /// `kCMSampleAttachmentKey_HEVCStepwiseTemporalSubLayerAccess`.
            public static let hevcStepwiseTemporalSubLayerAccess = Key(rawValue: kCMSampleAttachmentKey_HEVCStepwiseTemporalSubLayerAccess)
            /// `kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType`.
            public static let hevcSyncSampleNALUnitType = Key(rawValue: kCMSampleAttachmentKey_HEVCSyncSampleNALUnitType)
            /// `kCMSampleAttachmentKey_AudioIndependentSampleDecoderRefreshCount`.
            public static let audioIndependentSampleDecoderRefreshCount = Key(
                rawValue: kCMSampleAttachmentKey_AudioIndependentSampleDecoderRefreshCount)
        }

        let dictionary: NSMutableDictionary

        /// The value for `key`, or nil; setting nil removes it.
        public subscript(key: Key) -> Any? {
            get { dictionary.object(forKey: key.rawValue) }
            nonmutating set {
                if let newValue { dictionary.setObject(newValue, forKey: key.rawValue) } else { dictionary.removeObject(forKey: key.rawValue) }
            }
        }

        /// Each key and its value.
        public func makeIterator() -> IndexingIterator<[(key: Key, value: Any)]> {
            let pairs: [(key: Key, value: Any)] = dictionary.allKeys.compactMap { key in
                let string = (key as? String).map { NSString(string: $0) } ?? (key as? NSString)
                guard let string, let value = dictionary.object(forKey: string) else { return nil }
                return (Key(rawValue: string), value)
            }
            return pairs.makeIterator()
        }
    }

    /// The per-sample attachments of a buffer, one dictionary per sample, as the Swift
    /// overlay's `CMSampleBuffer.SampleAttachmentsArray`.
    public struct SampleAttachmentsArray: Collection {
        let storage: CMSampleAttachmentsArrayStorage?

        public var startIndex: Int { 0 }
        public var endIndex: Int { storage?.dictionaries.count ?? 0 }
        public func index(after i: Int) -> Int { i + 1 }

        /// The attachments of sample `position`; setting one replaces that sample's attachments.
        public subscript(position: Int) -> PerSampleAttachmentsDictionary {
            get {
                guard let storage else { preconditionFailure("SampleAttachmentsArray: index out of range") }
                return PerSampleAttachmentsDictionary(dictionary: storage.dictionaries[position])
            }
            nonmutating set {
                guard let storage else { preconditionFailure("SampleAttachmentsArray: index out of range") }
                let target = storage.dictionaries[position]
                guard target !== newValue.dictionary else { return }
                let source = newValue.dictionary
                target.removeAllObjects()
                for key in source.allKeys {
                    if let hashable = key as? AnyHashable, let value = source.object(forKey: key) { target.setObject(value, forKey: hashable) }
                }
            }
        }
    }

    /// The per-sample attachments, made (one empty dictionary per sample) when the buffer
    /// has none, as `CMSampleBufferGetSampleAttachmentsArray(_, createIfNecessary: true)`;
    /// empty for an invalidated buffer. Setting copies each given sample's attachments.
    public var sampleAttachments: SampleAttachmentsArray {
        get { SampleAttachmentsArray(storage: sampleAttachmentsStorage(create: true)) }
        set {
            let current = sampleAttachments
            for index in current.indices where index < newValue.count { current[index] = newValue[index] }
        }
    }
}
