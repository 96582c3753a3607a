import Foundation

// Core Foundation type identifiers for the Core Media and Core Video objects, so the
// iOS idiom for checking a value pulled out of a dictionary or attachment works:
//
//     if CFGetTypeID(value as CFTypeRef) == CVPixelBufferGetTypeID() { let pixels = value as! CVPixelBuffer }
//
// On Apple platforms every CF object carries a runtime-assigned type ID; here each object
// type gets a fixed one. A `CFTypeRef` is any object, as in Apple's Swift (`AnyObject`).

/// A Core Foundation object (`CFTypeRef`): any class instance, as Apple's Swift imports it.
public typealias CFTypeRef = AnyObject
/// A Core Foundation type identifier (`CFTypeID`).
public typealias CFTypeID = UInt

/// The fixed type identifiers handed out here (arbitrary, distinct, never 0).
enum _CFTypeIDs {
    static let string: CFTypeID = 7
    static let dictionary: CFTypeID = 18
    static let array: CFTypeID = 19
    static let data: CFTypeID = 20
    static let number: CFTypeID = 22
    static let boolean: CFTypeID = 21
    static let sampleBuffer: CFTypeID = 0x100
    static let blockBuffer: CFTypeID = 0x101
    static let formatDescription: CFTypeID = 0x102
    static let pixelBuffer: CFTypeID = 0x103
    static let pixelBufferPool: CFTypeID = 0x104
    static let clock: CFTypeID = 0x105
    static let timebase: CFTypeID = 0x106
}

/// The type identifier of `cf`: equal to `CMSampleBufferGetTypeID()`,
/// `CVPixelBufferGetTypeID()`, `CFStringGetTypeID()` … for those objects. Any other class
/// gets an identifier of its own, the same for every instance of it in this process.
public func CFGetTypeID(_ cf: CFTypeRef!) -> CFTypeID {
    switch cf {
    case is CMSampleBuffer: return _CFTypeIDs.sampleBuffer
    case is CMBlockBuffer: return _CFTypeIDs.blockBuffer
    case is CMFormatDescription: return _CFTypeIDs.formatDescription
    case is CVBuffer: return _CFTypeIDs.pixelBuffer
    case is CVPixelBufferPool: return _CFTypeIDs.pixelBufferPool
    case is CMClock: return _CFTypeIDs.clock
    case is CMTimebase: return _CFTypeIDs.timebase
    case is NSString: return _CFTypeIDs.string
    case let number as NSNumber:
        // Foundation's Booleans are NSNumbers; Core Foundation gives them their own type.
        return String(cString: number.objCType) == "c" && (number == kCFBooleanTrue || number == kCFBooleanFalse)
            ? _CFTypeIDs.boolean : _CFTypeIDs.number
    case is NSDictionary: return _CFTypeIDs.dictionary
    case is NSArray: return _CFTypeIDs.array
    case is NSData: return _CFTypeIDs.data
    default:
        return CFTypeID(UInt(bitPattern: ObjectIdentifier(type(of: cf as AnyObject)).hashValue) | 0x1000)
    }
}

/// The type identifier of clocks.
public func CMClockGetTypeID() -> CFTypeID { _CFTypeIDs.clock }
/// The type identifier of timebases.
public func CMTimebaseGetTypeID() -> CFTypeID { _CFTypeIDs.timebase }
/// The type identifier of sample buffers.
public func CMSampleBufferGetTypeID() -> CFTypeID { _CFTypeIDs.sampleBuffer }
/// The type identifier of block buffers.
public func CMBlockBufferGetTypeID() -> CFTypeID { _CFTypeIDs.blockBuffer }
/// The type identifier of format descriptions (video, audio and metadata alike).
public func CMFormatDescriptionGetTypeID() -> CFTypeID { _CFTypeIDs.formatDescription }
/// The type identifier of pixel buffers (every image buffer here is one).
public func CVPixelBufferGetTypeID() -> CFTypeID { _CFTypeIDs.pixelBuffer }
/// The type identifier of pixel buffer pools.
public func CVPixelBufferPoolGetTypeID() -> CFTypeID { _CFTypeIDs.pixelBufferPool }
/// The type identifier of strings (`CFString`, `NSString`).
public func CFStringGetTypeID() -> CFTypeID { _CFTypeIDs.string }
/// The type identifier of numbers (`CFNumber`; Booleans have `CFBooleanGetTypeID()`).
public func CFNumberGetTypeID() -> CFTypeID { _CFTypeIDs.number }
/// The type identifier of Booleans (`kCFBooleanTrue`, `kCFBooleanFalse`).
public func CFBooleanGetTypeID() -> CFTypeID { _CFTypeIDs.boolean }
/// The type identifier of dictionaries.
public func CFDictionaryGetTypeID() -> CFTypeID { _CFTypeIDs.dictionary }
/// The type identifier of arrays.
public func CFArrayGetTypeID() -> CFTypeID { _CFTypeIDs.array }
/// The type identifier of data objects.
public func CFDataGetTypeID() -> CFTypeID { _CFTypeIDs.data }

extension CMSampleBuffer {
    /// The type identifier of sample buffers (the Swift overlay's property).
    public static var typeID: CFTypeID { CMSampleBufferGetTypeID() }
}

extension CMBlockBuffer {
    /// The type identifier of block buffers (the Swift overlay's property).
    public class var typeID: CFTypeID { CMBlockBufferGetTypeID() }
}

extension CMFormatDescription {
    /// The type identifier of format descriptions (the Swift overlay's property).
    public static var typeID: CFTypeID { CMFormatDescriptionGetTypeID() }
}
