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
