import Foundation

// The Core Foundation collection types that CMSampleBufferGetSampleAttachmentsArray hands
// out. Linux's Foundation has no CFArray or CFDictionary (its CoreFoundation module is an
// implementation detail of Foundation), but there, as on Apple, NSArray, NSDictionary and
// NSString are the toll-free bridged forms of those types, so the CF names are the NS
// classes here. That keeps both iOS idioms working on one object:
//
//     (CMSampleBufferGetSampleAttachmentsArray(sbuf, createIfNecessary: true) as? [NSMutableDictionary])?.first
//     unsafeBitCast(CFArrayGetValueAtIndex(array, 0), to: CFMutableDictionary.self)
//
// Elsewhere in this module CF strings stay Swift `String`s (format-description extensions,
// buffer attachment keys); only the per-sample attachment keys, which apps pass to
// `Unmanaged.passUnretained(_:)` and use as `[CFString: Any]` keys, are `CFString`s.

/// An immutable array, as Core Foundation's `CFArray` (toll-free bridged to `NSArray`).
public typealias CFArray = NSArray
/// A dictionary, as Core Foundation's `CFDictionary` (toll-free bridged to `NSDictionary`).
public typealias CFDictionary = NSDictionary
/// A mutable dictionary, as `CFMutableDictionary` (toll-free bridged to `NSMutableDictionary`).
public typealias CFMutableDictionary = NSMutableDictionary
/// A string object, as `CFString` (toll-free bridged to `NSString`).
public typealias CFString = NSString
/// A Boolean object, as `CFBoolean` (an `NSNumber` here, as Foundation bridges it).
public typealias CFBoolean = NSNumber

/// The Boolean true object, as Core Foundation's `kCFBooleanTrue`.
public let kCFBooleanTrue: CFBoolean! = true as AnyObject as? NSNumber
/// The Boolean false object, as Core Foundation's `kCFBooleanFalse`.
public let kCFBooleanFalse: CFBoolean! = false as AnyObject as? NSNumber

/// The value of a Boolean object (`CFBooleanGetValue`).
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool { boolean.boolValue }

/// The number of values in an array (`CFArrayGetCount`).
public func CFArrayGetCount(_ theArray: CFArray!) -> Int { theArray.count }

/// The value at `idx`, unretained (`CFArrayGetValueAtIndex`): valid while the array holds it.
///
/// For the arrays Core Media returns here (the sample attachments), the pointer is the
/// stored dictionary itself, so `unsafeBitCast(_:to: CFMutableDictionary.self)` gives the
/// object the sample buffer keeps. For other arrays Linux's Foundation may hand back a
/// bridged copy of a value; only objects it stores unbridged keep their identity.
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: Int) -> UnsafeRawPointer! {
    precondition(idx >= 0 && idx < theArray.count, "CFArrayGetValueAtIndex: index \(idx) out of bounds")
    return UnsafeRawPointer(Unmanaged.passUnretained(theArray.object(at: idx) as AnyObject).toOpaque())
}

/// The number of key-value pairs in a dictionary (`CFDictionaryGetCount`).
public func CFDictionaryGetCount(_ theDict: CFDictionary!) -> Int { theDict.count }

/// Whether the dictionary has a value for `key`, an unretained object pointer
/// (`Unmanaged.passUnretained(kCMSampleAttachmentKey_NotSync).toOpaque()`).
public func CFDictionaryContainsKey(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> Bool {
    theDict.object(forKey: _cfObject(key)) != nil
}

/// The value for `key`, unretained, or nil (`CFDictionaryGetValue`). The pointer stays
/// valid while the dictionary holds the value: the object handed out is the one it stores.
public func CFDictionaryGetValue(_ theDict: CFDictionary!, _ key: UnsafeRawPointer!) -> UnsafeRawPointer! {
    let keyObject = _cfObject(key)
    guard let value = theDict.object(forKey: keyObject) else { return nil }
    // Linux's Foundation bridges stored objects on the way out (an NSNumber comes back a
    // Bool); a mutable dictionary is given the object back so the pointer names what it holds.
    let object = value as AnyObject
    if let mutable = theDict as? NSMutableDictionary, let hashable = keyObject as? AnyHashable {
        mutable.setObject(object, forKey: hashable)
    }
    return UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
}

/// Sets the value for `key`, both unretained object pointers (`CFDictionarySetValue`), as in
/// `CFDictionarySetValue(dict, Unmanaged.passUnretained(kCMSampleAttachmentKey_DisplayImmediately).toOpaque(),
/// Unmanaged.passUnretained(kCFBooleanTrue).toOpaque())`.
public func CFDictionarySetValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!, _ value: UnsafeRawPointer!) {
    guard let hashable = _cfObject(key) as? AnyHashable else { preconditionFailure("CFDictionarySetValue: the key is not hashable") }
    theDict.setObject(_cfObject(value), forKey: hashable)
}

/// Removes the value for `key` (`CFDictionaryRemoveValue`).
public func CFDictionaryRemoveValue(_ theDict: CFMutableDictionary!, _ key: UnsafeRawPointer!) {
    theDict.removeObject(forKey: _cfObject(key))
}

/// The object an unretained pointer names.
private func _cfObject(_ pointer: UnsafeRawPointer) -> AnyObject {
    Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
}

// MARK: Other toll-free bridged types
// The Core Foundation names iOS code reaches through Foundation (`width as CFNumber` in
// pixel-buffer attributes, `url as CFURL` for AudioToolbox and Image I/O, `CFAbsoluteTime`)
// that Linux's Foundation does not export: each is the Foundation class Apple bridges it
// to, so `as` converts both ways exactly as on iOS. (`CFData` is QuartzCore's, beside
// `CGImage`; `CFIndex` and `CFTimeInterval` are QuartzCore's too.)

/// A number object, as `CFNumber` (toll-free bridged to `NSNumber`): `1920 as CFNumber`.
public typealias CFNumber = NSNumber
/// A URL object, as `CFURL` (toll-free bridged to `NSURL`): `url as CFURL`, `cfURL as URL`.
public typealias CFURL = NSURL
/// An error object, as `CFError` (toll-free bridged to `NSError`).
public typealias CFError = NSError
/// A date object, as `CFDate` (toll-free bridged to `NSDate`).
public typealias CFDate = NSDate
/// A mutable array, as `CFMutableArray` (toll-free bridged to `NSMutableArray`).
public typealias CFMutableArray = NSMutableArray
/// A mutable string, as `CFMutableString` (toll-free bridged to `NSMutableString`).
public typealias CFMutableString = NSMutableString
/// A mutable data object, as `CFMutableData` (toll-free bridged to `NSMutableData`).
public typealias CFMutableData = NSMutableData
/// A set, as `CFSet` (toll-free bridged to `NSSet`).
public typealias CFSet = NSSet
/// A mutable set, as `CFMutableSet` (toll-free bridged to `NSMutableSet`).
public typealias CFMutableSet = NSMutableSet
/// The null object, as `CFNull` (toll-free bridged to `NSNull`).
public typealias CFNull = NSNull
/// A locale, as `CFLocale` (toll-free bridged to `NSLocale`).
public typealias CFLocale = NSLocale
/// A time zone, as `CFTimeZone` (toll-free bridged to `NSTimeZone`).
public typealias CFTimeZone = NSTimeZone
/// A calendar, as `CFCalendar` (toll-free bridged to `NSCalendar`).
public typealias CFCalendar = NSCalendar
/// A character set, as `CFCharacterSet` (toll-free bridged to `NSCharacterSet`).
public typealias CFCharacterSet = NSCharacterSet
/// An attributed string, as `CFAttributedString` (toll-free bridged to `NSAttributedString`).
public typealias CFAttributedString = NSAttributedString
/// A memory allocator (`CFAllocator`): every allocator argument here takes
/// `kCFAllocatorDefault` or nil, and memory comes from malloc whatever is passed.
public typealias CFAllocator = AnyObject
/// Seconds since 1 January 2001 00:00 GMT (`CFAbsoluteTime`).
public typealias CFAbsoluteTime = Double
/// A hash value (`CFHashCode`).
public typealias CFHashCode = UInt
/// A bit field of options (`CFOptionFlags`).
public typealias CFOptionFlags = UInt

/// The null object, as Core Foundation's `kCFNull`.
public let kCFNull: CFNull! = NSNull()

/// The current time in seconds since the reference date (`CFAbsoluteTimeGetCurrent`).
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime { Date().timeIntervalSinceReferenceDate }

/// The time a date object stands for (`CFDateGetAbsoluteTime`).
public func CFDateGetAbsoluteTime(_ theDate: CFDate!) -> CFAbsoluteTime { theDate.timeIntervalSinceReferenceDate }

/// The error's code (`CFErrorGetCode`).
public func CFErrorGetCode(_ err: CFError!) -> Int { err.code }

/// The error's domain (`CFErrorGetDomain`), a `CFString`.
public func CFErrorGetDomain(_ err: CFError!) -> CFString! { err.domain as NSString }

/// The error's localized description (`CFErrorCopyDescription`).
public func CFErrorCopyDescription(_ err: CFError!) -> CFString! { err.localizedDescription as NSString }

// MARK: CFNumber

/// The C type a `CFNumber` is created from or read into (Core Foundation's `CFNumberType`,
/// same raw values).
public enum CFNumberType: Int, Sendable {
    case sInt8Type = 1
    case sInt16Type = 2
    case sInt32Type = 3
    case sInt64Type = 4
    case float32Type = 5
    case float64Type = 6
    case charType = 7
    case shortType = 8
    case intType = 9
    case longType = 10
    case longLongType = 11
    case floatType = 12
    case doubleType = 13
    case cfIndexType = 14
    case nsIntegerType = 15
    case cgFloatType = 16
    /// The largest raw value (`kCFNumberMaxType`, equal to `cgFloatType`).
    public static var maxType: CFNumberType { .cgFloatType }

    /// Bytes the C type takes, and whether it is floating point.
    fileprivate var layout: (size: Int, float: Bool) {
        switch self {
        case .sInt8Type, .charType: (1, false)
        case .sInt16Type, .shortType: (2, false)
        case .sInt32Type, .intType: (4, false)
        case .sInt64Type, .longType, .longLongType, .cfIndexType, .nsIntegerType: (8, false)
        case .float32Type, .floatType: (4, true)
        case .float64Type, .doubleType, .cgFloatType: (8, true)
        }
    }
}

/// The order of two values (Core Foundation's `CFComparisonResult`).
public enum CFComparisonResult: Int, Sendable {
    case compareLessThan = -1
    case compareEqualTo = 0
    case compareGreaterThan = 1
}

/// A number holding the value `valuePtr` points at, read as `theType`
/// (`CFNumberCreate(kCFAllocatorDefault, .sInt32Type, &value)`).
public func CFNumberCreate(_ allocator: CFAllocator!, _ theType: CFNumberType, _ valuePtr: UnsafeRawPointer!) -> CFNumber! {
    switch theType {
    case .sInt8Type, .charType: NSNumber(value: valuePtr.loadUnaligned(as: Int8.self))
    case .sInt16Type, .shortType: NSNumber(value: valuePtr.loadUnaligned(as: Int16.self))
    case .sInt32Type, .intType: NSNumber(value: valuePtr.loadUnaligned(as: Int32.self))
    case .sInt64Type, .longType, .longLongType, .cfIndexType, .nsIntegerType: NSNumber(value: valuePtr.loadUnaligned(as: Int64.self))
    case .float32Type, .floatType: NSNumber(value: valuePtr.loadUnaligned(as: Float.self))
    case .float64Type, .doubleType, .cgFloatType: NSNumber(value: valuePtr.loadUnaligned(as: Double.self))
    }
}

/// Writes the number's value as `theType` to `valuePtr`. False, as Core Foundation's,
/// when the conversion lost something (a fraction cut off, a value out of the type's
/// range: the value written is then the converted, clamped one).
@discardableResult
public func CFNumberGetValue(_ number: CFNumber!, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer!) -> Bool {
    if CFNumberIsFloatType(number) {
        let value = number.doubleValue
        switch theType.layout {
        case (4, true):
            let single = Float(value)
            valuePtr.storeBytes(of: single, as: Float.self)
            return Double(single) == value || value.isNaN
        case (_, true):
            valuePtr.storeBytes(of: value, as: Double.self)
            return true
        default:
            let whole = value.isNaN ? 0 : max(min(value.rounded(.towardZero), 9.2e18), -9.2e18)
            return _storeInteger(Int64(whole), theType, valuePtr) && whole == value
        }
    }
    let value = number.int64Value
    switch theType.layout {
    case (4, true):
        valuePtr.storeBytes(of: Float(value), as: Float.self)
        return Int64(exactly: Float(value)) == value
    case (_, true):
        valuePtr.storeBytes(of: Double(value), as: Double.self)
        return Int64(exactly: Double(value)) == value
    default:
        return _storeInteger(value, theType, valuePtr)
    }
}

/// Stores `value` as the integer type, clamped; false when it did not fit.
private func _storeInteger(_ value: Int64, _ theType: CFNumberType, _ valuePtr: UnsafeMutableRawPointer) -> Bool {
    func store<T: FixedWidthInteger>(_ type: T.Type) -> Bool {
        valuePtr.storeBytes(of: T(clamping: value), as: T.self)
        return T(exactly: value) != nil
    }
    switch theType.layout.size {
    case 1: return store(Int8.self)
    case 2: return store(Int16.self)
    case 4: return store(Int32.self)
    default: return store(Int64.self)
    }
}

/// The type the number holds its value as (`CFNumberGetType`): 64-bit integers and
/// doubles for numbers made from Swift's `Int` and `Double`.
public func CFNumberGetType(_ number: CFNumber!) -> CFNumberType {
    switch String(cString: number.objCType) {
    case "c", "C", "B": .sInt8Type
    case "s", "S": .sInt16Type
    case "i": .sInt32Type
    case "f": .float32Type
    case "d": .float64Type
    default: .sInt64Type
    }
}

/// The size in bytes of the number's type (`CFNumberGetByteSize`).
public func CFNumberGetByteSize(_ number: CFNumber!) -> Int { CFNumberGetType(number).layout.size }

/// Whether the number holds a floating-point value (`CFNumberIsFloatType`).
public func CFNumberIsFloatType(_ number: CFNumber!) -> Bool { CFNumberGetType(number).layout.float }

/// Compares two numbers by value (`CFNumberCompare`); `context` is unused, as in Core Foundation.
public func CFNumberCompare(_ number: CFNumber!, _ otherNumber: CFNumber!, _ context: UnsafeMutableRawPointer!) -> CFComparisonResult {
    switch number.compare(otherNumber) {
    case .orderedAscending: .compareLessThan
    case .orderedSame: .compareEqualTo
    case .orderedDescending: .compareGreaterThan
    }
}
