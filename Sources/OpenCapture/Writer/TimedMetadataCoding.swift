import Foundation
import MediaIO

/// Turns timed-metadata groups into boxed-metadata samples and back, by the keys of a
/// boxed format description (local ID = position + 1).
enum TimedMetadataCoding {
    /// The track a format description's keys make.
    static func track(for keys: [CMMetadataKeyEntry], describesVideo: Bool) -> MovieMetadataTrackSettings {
        MovieMetadataTrackSettings(
            keys: keys.map {
                BoxedMetadataKey(namespace: $0.namespace, value: $0.keyBytes, wellKnownType: $0.wellKnownType, locale: $0.extendedLanguageTag)
            }, describesVideo: describesVideo)
    }

    /// The format-description keys of a track read back.
    static func entries(of keys: [BoxedMetadataKey]) -> [CMMetadataKeyEntry] {
        keys.map { key in
            let space = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: key.namespace >> $0) }.filter { $0 != 0 }
            var identifier: String?
            let keyValue: Any = space == Array("mdta".utf8) ? String(decoding: key.value, as: UTF8.self) : key.value
            CMMetadataCreateIdentifierForKeyAndKeySpace(
                allocator: nil, key: keyValue, keySpace: String(decoding: space, as: UTF8.self), identifierOut: &identifier)
            return CMMetadataKeyEntry(
                identifier: identifier ?? "", dataType: CMMetadataKeyEntry.dataType(wellKnownType: key.wellKnownType),
                extendedLanguageTag: key.locale)
        }
    }

    /// A sample buffer of one boxed-metadata sample.
    static func sampleBuffer(_ sample: Data, format: CMMetadataFormatDescription, time: CMTime, duration: CMTime) -> CMSampleBuffer? {
        var block: CMBlockBuffer?
        guard CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: sample.count, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: sample.count, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block) == noErr, let block
        else { return nil }
        if !sample.isEmpty {
            sample.withUnsafeBytes { _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block, offsetIntoDestination: 0, dataLength: sample.count) }
        }
        let buffer = CMSampleBuffer(imageBuffer: nil, formatDescription: format, presentationTimeStamp: time, duration: duration)
        _ = buffer.setAudioData(block, packets: [])
        return buffer
    }

    /// The sample of `group`; nil (with the reason) when an item's identifier is not among
    /// the keys or its value does not fit the key's data type.
    static func sample(of group: AVTimedMetadataGroup, keys: [CMMetadataKeyEntry]) -> Result<Data, AVError> {
        var items: [(localID: UInt32, value: Data)] = []
        for item in group.items {
            let identifier = item.identifier?.rawValue ?? ""
            guard let index = keys.firstIndex(where: { $0.identifier == identifier && ($0.extendedLanguageTag == nil || $0.extendedLanguageTag == item.extendedLanguageTag) })
                ?? keys.firstIndex(where: { $0.identifier == identifier })
            else {
                return .failure(AVError(.unknown, "The metadata item \(identifier) is not described by the input's format description"))
            }
            guard let bytes = encode(item, as: keys[index].dataType) else {
                return .failure(AVError(.unknown, "The value of metadata item \(identifier) is not of data type \(keys[index].dataType)"))
            }
            items.append((UInt32(index + 1), bytes))
        }
        return .success(MovieMetadataTrackSettings.sample(items))
    }

    /// The value's bytes as the data type stores them (big-endian numbers, UTF-8 text).
    static func encode(_ item: AVMetadataItem, as dataType: String) -> Data? {
        func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        let number = item.numberValue
        switch dataType {
        case kCMMetadataBaseDataType_UTF8, kCMMetadataBaseDataType_JSON, kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709,
            kCMMetadataDataType_QuickTimeMetadataDirection:
            return item.stringValue.map { Data($0.utf8) }
        case kCMMetadataBaseDataType_UTF16:
            return item.stringValue.map { $0.utf16.reduce(into: Data()) { $0 += bigEndian($1) } }
        case kCMMetadataBaseDataType_SInt8: return number.map { bigEndian($0.int8Value) }
        case kCMMetadataBaseDataType_SInt16: return number.map { bigEndian($0.int16Value) }
        case kCMMetadataBaseDataType_SInt32: return number.map { bigEndian($0.int32Value) }
        case kCMMetadataBaseDataType_SInt64: return number.map { bigEndian($0.int64Value) }
        case kCMMetadataBaseDataType_UInt8: return number.map { bigEndian($0.uint8Value) }
        case kCMMetadataBaseDataType_UInt16: return number.map { bigEndian($0.uint16Value) }
        case kCMMetadataBaseDataType_UInt32: return number.map { bigEndian($0.uint32Value) }
        case kCMMetadataBaseDataType_UInt64: return number.map { bigEndian($0.uint64Value) }
        case kCMMetadataBaseDataType_Float32: return number.map { bigEndian($0.floatValue.bitPattern) }
        case kCMMetadataBaseDataType_Float64: return number.map { bigEndian($0.doubleValue.bitPattern) }
        default: return item.dataValue
        }
    }

    /// The value a sample's bytes hold for the data type.
    static func decode(_ bytes: Data, as dataType: String) -> (any NSCopying & NSObjectProtocol)? {
        func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard bytes.count == MemoryLayout<T>.size else { return nil }
            return bytes.reduce(T.zero) { $0 << 8 | T(truncatingIfNeeded: $1) }
        }
        switch dataType {
        case kCMMetadataBaseDataType_UTF8, kCMMetadataBaseDataType_JSON, kCMMetadataDataType_QuickTimeMetadataLocation_ISO6709,
            kCMMetadataDataType_QuickTimeMetadataDirection:
            return String(data: bytes, encoding: .utf8).map { $0 as NSString }
        case kCMMetadataBaseDataType_UTF16: return String(data: bytes, encoding: .utf16BigEndian).map { $0 as NSString }
        case kCMMetadataBaseDataType_SInt8: return integer(Int8.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_SInt16: return integer(Int16.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_SInt32: return integer(Int32.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_SInt64: return integer(Int64.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_UInt8: return integer(UInt8.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_UInt16: return integer(UInt16.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_UInt32: return integer(UInt32.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_UInt64: return integer(UInt64.self).map { NSNumber(value: $0) }
        case kCMMetadataBaseDataType_Float32: return integer(UInt32.self).map { NSNumber(value: Float(bitPattern: $0)) }
        case kCMMetadataBaseDataType_Float64: return integer(UInt64.self).map { NSNumber(value: Double(bitPattern: $0)) }
        default: return bytes as NSData
        }
    }

    /// The items of a sample, timed `timeRange`.
    static func items(ofSample sample: Data, keys: [CMMetadataKeyEntry], timeRange: CMTimeRange) -> [AVMetadataItem] {
        MovieMetadataTrackSettings.items(ofSample: sample).compactMap { box in
            guard box.localID >= 1, Int(box.localID) <= keys.count else { return nil }  // a 'free' box, or unknown
            let key = keys[Int(box.localID) - 1]
            let item = AVMutableMetadataItem()
            item.identifier = AVMetadataIdentifier(rawValue: key.identifier)
            item.dataType = key.dataType
            item.extendedLanguageTag = key.extendedLanguageTag
            item.value = decode(box.value, as: key.dataType)
            item.time = timeRange.start
            item.duration = timeRange.duration
            return item
        }
    }
}
