// The Core Foundation type names iOS code reaches through Foundation (CFNumber.h, CFURL.h,
// CFError.h, CFDate.h, CFArray.h …), spelled as iOS code spells them, in a file that
// imports Foundation beside AVFoundation (no ambiguity may arise between the two).
import AVFoundation
import CoreVideo
import Foundation
import Testing

/// Touches the CF names; compiled, never called.
func spellCFTypes(_ url: URL, _ error: NSError, _ width: Int) {
    let attributes: [String: Any] = [
        kCVPixelBufferWidthKey as String: 1920 as CFNumber,
        kCVPixelBufferHeightKey as String: width as CFNumber,
    ]
    let number: CFNumber = 30 as CFNumber
    var value: Int32 = 0
    let exact: Bool = CFNumberGetValue(number, .sInt32Type, &value)
    var source: Double = 2.5
    let made: CFNumber = CFNumberCreate(kCFAllocatorDefault, .float64Type, &source)
    let type: CFNumberType = CFNumberGetType(made)
    let size: CFIndex = CFNumberGetByteSize(made)
    let isFloat: Bool = CFNumberIsFloatType(made)
    let order: CFComparisonResult = CFNumberCompare(number, made, nil)
    let numberType: CFTypeID = CFNumberGetTypeID()
    let cfURL: CFURL = url as CFURL
    let back: URL = cfURL as URL
    let cfError: CFError = error as CFError
    let code: Int = CFErrorGetCode(cfError)
    let domain: CFString = CFErrorGetDomain(cfError)
    let text: CFString = CFErrorCopyDescription(cfError)
    let date: CFDate = Date() as CFDate
    let absolute: CFAbsoluteTime = CFDateGetAbsoluteTime(date)
    let now: CFAbsoluteTime = CFAbsoluteTimeGetCurrent()
    let array: CFMutableArray = NSMutableArray()
    let string: CFMutableString = NSMutableString(string: "a")
    let data: CFMutableData = NSMutableData()
    let set: CFSet = NSSet()
    let mutableSet: CFMutableSet = NSMutableSet()
    let null: CFNull = kCFNull
    let locale: CFLocale = Locale.current as CFLocale
    let zone: CFTimeZone = TimeZone.current as CFTimeZone
    let attributed: CFAttributedString = NSAttributedString(string: "a")
    let characters: CFCharacterSet = CharacterSet.letters as CFCharacterSet
    let calendar: CFCalendar = NSCalendar(calendarIdentifier: .gregorian)!
    let hash: CFHashCode = 0
    let flags: CFOptionFlags = 0
    let maxType: CFNumberType = .maxType
    _ = (attributes, exact, type, size, isFloat, order, numberType, back, code, domain, text, absolute, now, array, string, data, set)
    _ = (mutableSet, null, locale, zone, attributed, characters, calendar, hash, flags, maxType)
}

@Suite("Core Foundation type names spelling")
struct CFTypesSpellingTests {
    @Test func pixelBufferAttributesWithCFNumbersAreRead() {
        let attributes: [String: Any] = [kCVPixelBufferWidthKey as String: 1920 as CFNumber, kCVPixelBufferHeightKey as String: 1080 as CFNumber]
        #expect(attributes[kCVPixelBufferWidthKey as String] as? Int == 1920)
        #expect((attributes[kCVPixelBufferHeightKey as String] as? CFNumber)?.intValue == 1080)
    }

    @Test func numberValuesConvertAsCoreFoundationDoes() {
        var int32: Int32 = 0
        #expect(CFNumberGetValue(1920 as CFNumber, .sInt32Type, &int32) && int32 == 1920)
        var int8: Int8 = 0
        #expect(!CFNumberGetValue(300 as CFNumber, .sInt8Type, &int8), "out of range: lossy")
        #expect(int8 == 127)
        var truncated: Int = 0
        #expect(!CFNumberGetValue(2.75 as CFNumber, .nsIntegerType, &truncated) && truncated == 2)
        var double: Double = 0
        #expect(CFNumberGetValue(2.75 as CFNumber, .doubleType, &double) && double == 2.75)
        var raw: Int16 = -5
        let made: CFNumber = CFNumberCreate(nil, .sInt16Type, &raw)
        #expect(made.intValue == -5 && CFNumberGetType(made) == .sInt16Type && !CFNumberIsFloatType(made))
        #expect(CFNumberIsFloatType(1.5 as CFNumber) && CFNumberGetByteSize(1.5 as CFNumber) == 8)
        #expect(CFNumberCompare(1 as CFNumber, 2 as CFNumber, nil) == .compareLessThan)
        #expect(CFGetTypeID(made) == CFNumberGetTypeID())
    }

    @Test func bridgedObjectsConvertBothWays() {
        let url = URL(fileURLWithPath: "/tmp/shutter.caf")
        #expect((url as CFURL) as URL == url)
        let error = NSError(domain: "test", code: 7)
        #expect(CFErrorGetCode(error as CFError) == 7 && CFErrorGetDomain(error as CFError) as String == "test")
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        #expect(CFDateGetAbsoluteTime(date as CFDate) == 1000)
    }
}
