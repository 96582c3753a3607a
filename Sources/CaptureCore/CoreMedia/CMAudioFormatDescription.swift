import Foundation

/// An audio format description: the same class, as in Apple's SDK.
public typealias CMAudioFormatDescription = CMFormatDescription

/// A parameter was wrong. The corresponding C constant is `kCMFormatDescriptionError_InvalidParameter`.
public let kCMFormatDescriptionError_InvalidParameter: OSStatus = -12710
/// An allocation failed.
public let kCMFormatDescriptionError_AllocationFailed: OSStatus = -12711
/// The description has no such value.
public let kCMFormatDescriptionError_ValueNotAvailable: OSStatus = -12718

/// The audio parts of a format description, each at an address that stays put for the
/// description's life (Core Media hands out pointers to them).
package final class AudioFormatStorage: @unchecked Sendable {
    let asbd: UnsafeMutablePointer<AudioStreamBasicDescription>
    let layout: UnsafeMutableRawPointer?
    let layoutSize: Int
    let cookie: UnsafeMutableRawPointer?
    let cookieSize: Int

    package init(asbd: AudioStreamBasicDescription, layout: UnsafeRawPointer?, layoutSize: Int, cookie: UnsafeRawPointer?, cookieSize: Int) {
        self.asbd = .allocate(capacity: 1)
        self.asbd.initialize(to: asbd)
        self.layoutSize = layout == nil ? 0 : layoutSize
        self.layout = layout.map { source in
            let copy = UnsafeMutableRawPointer.allocate(byteCount: layoutSize, alignment: MemoryLayout<AudioChannelLayout>.alignment)
            copy.copyMemory(from: source, byteCount: layoutSize)
            return copy
        }
        self.cookieSize = cookie == nil ? 0 : cookieSize
        self.cookie = cookie.map { source in
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(cookieSize, 1), alignment: 16)
            copy.copyMemory(from: source, byteCount: cookieSize)
            return copy
        }
    }

    /// A description with a standard channel layout tag (mono, stereo …).
    package convenience init(asbd: AudioStreamBasicDescription, layoutTag: AudioChannelLayoutTag) {
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = layoutTag
        self.init(asbd: asbd, layout: &layout, layoutSize: MemoryLayout<AudioChannelLayout>.size, cookie: nil, cookieSize: 0)
    }

    deinit {
        asbd.deallocate()
        layout?.deallocate()
        cookie?.deallocate()
    }

    static func same(_ a: AudioFormatStorage?, _ b: AudioFormatStorage?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.asbd.pointee.sameFields(as: b.asbd.pointee) && bytesEqual(a.layout, a.layoutSize, b.layout, b.layoutSize)
            && bytesEqual(a.cookie, a.cookieSize, b.cookie, b.cookieSize)
    }

    private static func bytesEqual(_ a: UnsafeMutableRawPointer?, _ aSize: Int, _ b: UnsafeMutableRawPointer?, _ bSize: Int) -> Bool {
        guard aSize == bSize else { return false }
        guard let a, let b else { return a == nil && b == nil }
        return memcmp(a, b, aSize) == 0
    }
}

/// Makes an audio format description from a stream description, an optional channel
/// layout (`layoutSize` bytes: the layout and its channel descriptions) and an optional
/// magic cookie (codec configuration, e.g. AAC's AudioSpecificConfig).
@discardableResult
public func CMAudioFormatDescriptionCreate(
    allocator: AnyObject?, asbd: UnsafePointer<AudioStreamBasicDescription>, layoutSize: Int,
    layout: UnsafePointer<AudioChannelLayout>?, magicCookieSize: Int, magicCookie: UnsafeRawPointer?,
    extensions: [String: Any]?, formatDescriptionOut: UnsafeMutablePointer<CMAudioFormatDescription?>
) -> OSStatus {
    let stream = asbd.pointee
    guard stream.mFormatID != 0, stream.mSampleRate >= 0 else { return kCMFormatDescriptionError_InvalidParameter }
    if stream.mFormatID == kAudioFormatLinearPCM {
        // Linear PCM must say what a frame is.
        guard stream.mChannelsPerFrame > 0, stream.mBitsPerChannel > 0, stream.mBytesPerFrame > 0 else {
            return kCMFormatDescriptionError_InvalidParameter
        }
    }
    if let layout {
        guard layoutSize >= AudioChannelLayout.descriptionsOffset else { return kCMFormatDescriptionError_InvalidParameter }
        let layoutValue = layout.pointee
        if layoutValue.mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelDescriptions,
            layoutSize < AudioChannelLayout.descriptionsOffset
                + Int(layoutValue.mNumberChannelDescriptions) * MemoryLayout<AudioChannelDescription>.stride
        {
            return kCMFormatDescriptionError_InvalidParameter
        }
    } else if layoutSize != 0 {
        return kCMFormatDescriptionError_InvalidParameter
    }
    if magicCookie == nil && magicCookieSize != 0 { return kCMFormatDescriptionError_InvalidParameter }
    formatDescriptionOut.pointee = CMFormatDescription(
        audio: AudioFormatStorage(
            asbd: stream, layout: layout.map { UnsafeRawPointer($0) }, layoutSize: layoutSize, cookie: magicCookie,
            cookieSize: magicCookieSize))
    return noErr
}

/// The stream description of an audio format description; nil for other media. The
/// pointer stays valid as long as the description lives.
public func CMAudioFormatDescriptionGetStreamBasicDescription(
    _ desc: CMAudioFormatDescription
) -> UnsafePointer<AudioStreamBasicDescription>? {
    desc.audio.map { UnsafePointer($0.asbd) }
}

/// The channel layout of an audio format description and its size in bytes; nil when it
/// has none. The pointer stays valid as long as the description lives.
public func CMAudioFormatDescriptionGetChannelLayout(
    _ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?
) -> UnsafePointer<AudioChannelLayout>? {
    sizeOut?.pointee = desc.audio?.layoutSize ?? 0
    return desc.audio?.layout.map { UnsafePointer($0.assumingMemoryBound(to: AudioChannelLayout.self)) }
}

/// The magic cookie of an audio format description and its size; nil when it has none.
public func CMAudioFormatDescriptionGetMagicCookie(
    _ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?
) -> UnsafeRawPointer? {
    sizeOut?.pointee = desc.audio?.cookieSize ?? 0
    return desc.audio?.cookie.map { UnsafeRawPointer($0) }
}

extension CMFormatDescription {
    /// The stream description of an audio format; nil for other media (the Swift overlay's property).
    public var audioStreamBasicDescription: AudioStreamBasicDescription? { audio?.asbd.pointee }

    /// An audio format description (the Swift overlay's initialiser); throws the
    /// `CMAudioFormatDescriptionCreate` status as an `NSOSStatusErrorDomain` error.
    public convenience init(
        audioStreamBasicDescription asbd: AudioStreamBasicDescription, layoutSize: Int = 0,
        layout: UnsafePointer<AudioChannelLayout>? = nil, magicCookieSize: Int = 0, magicCookie: UnsafeRawPointer? = nil,
        extensions: [String: Any]? = nil
    ) throws {
        var made: CMAudioFormatDescription?
        var stream = asbd
        let status = CMAudioFormatDescriptionCreate(
            allocator: nil, asbd: &stream, layoutSize: layoutSize, layout: layout, magicCookieSize: magicCookieSize,
            magicCookie: magicCookie, extensions: extensions, formatDescriptionOut: &made)
        guard status == noErr, let made, let audio = made.audio else {
            throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status))
        }
        self.init(audio: audio)
    }
}
