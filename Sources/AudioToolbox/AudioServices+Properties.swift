import CaptureCore

// AudioServicesGetPropertyInfo, AudioServicesGetProperty and AudioServicesSetProperty. Both
// properties (kAudioServicesPropertyIsUISound, kAudioServicesPropertyCompletePlaybackIfAppDies)
// are a UInt32 per sound, the sound's ID being the specifier, and both are writable.

/// The size of a property's value (4 bytes) and whether it can be set (it can).
@discardableResult
public func AudioServicesGetPropertyInfo(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?
) -> OSStatus {
    guard SystemSoundServer.propertyDefaults[inPropertyID] != nil else { return kAudioServicesUnsupportedPropertyError }
    guard soundID(inSpecifierSize, inSpecifier) != nil else { return kAudioServicesBadSpecifierSizeError }
    outPropertyDataSize?.pointee = UInt32(MemoryLayout<UInt32>.size)
    outWritable?.pointee = true
    return kAudioServicesNoError
}

/// Reads a property of the sound named by the specifier. `ioPropertyDataSize` gives the
/// buffer's size (at least 4) and gets the size written; a nil `outPropertyData` asks for
/// the size only.
@discardableResult
public func AudioServicesGetProperty(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer?
) -> OSStatus {
    guard SystemSoundServer.propertyDefaults[inPropertyID] != nil else { return kAudioServicesUnsupportedPropertyError }
    guard let id = soundID(inSpecifierSize, inSpecifier) else { return kAudioServicesBadSpecifierSizeError }
    let size = UInt32(MemoryLayout<UInt32>.size)
    guard let outPropertyData else {
        ioPropertyDataSize.pointee = size
        return kAudioServicesNoError
    }
    guard ioPropertyDataSize.pointee >= size, let value = SystemSoundServer.shared.property(inPropertyID, of: id) else {
        return kAudioServicesBadPropertySizeError
    }
    outPropertyData.storeBytes(of: value, as: UInt32.self)
    ioPropertyDataSize.pointee = size
    return kAudioServicesNoError
}

/// Sets a property of the sound named by the specifier to the `UInt32` in `inPropertyData`.
@discardableResult
public func AudioServicesSetProperty(
    _ inPropertyID: AudioServicesPropertyID, _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
    _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer
) -> OSStatus {
    guard SystemSoundServer.propertyDefaults[inPropertyID] != nil else { return kAudioServicesUnsupportedPropertyError }
    guard let id = soundID(inSpecifierSize, inSpecifier) else { return kAudioServicesBadSpecifierSizeError }
    guard inPropertyDataSize == UInt32(MemoryLayout<UInt32>.size) else { return kAudioServicesBadPropertySizeError }
    let value = inPropertyData.loadUnaligned(as: UInt32.self)
    _ = SystemSoundServer.shared.setProperty(inPropertyID, of: id, to: value)
    return kAudioServicesNoError
}

/// The sound ID a specifier holds, nil unless it is exactly one `SystemSoundID`.
private func soundID(_ size: UInt32, _ specifier: UnsafeRawPointer?) -> SystemSoundID? {
    guard size == UInt32(MemoryLayout<SystemSoundID>.size), let specifier else { return nil }
    return specifier.loadUnaligned(as: SystemSoundID.self)
}
