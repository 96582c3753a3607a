// CVReturn.h, spelled as iOS code spells it: every kCVReturn code with Apple's value.
import CoreVideo
import Testing

@Suite("CVReturn spelling")
struct CVReturnSpellingTests {
    @Test("every CVReturn code has Apple's value")
    func values() {
        let codes: [(CVReturn, CVReturn)] = [
            (kCVReturnSuccess, 0), (kCVReturnFirst, -6660), (kCVReturnError, -6660), (kCVReturnInvalidArgument, -6661),
            (kCVReturnAllocationFailed, -6662), (kCVReturnUnsupported, -6663), (kCVReturnInvalidDisplay, -6670),
            (kCVReturnDisplayLinkAlreadyRunning, -6671), (kCVReturnDisplayLinkNotRunning, -6672),
            (kCVReturnDisplayLinkCallbacksNotSet, -6673), (kCVReturnInvalidPixelFormat, -6680), (kCVReturnInvalidSize, -6681),
            (kCVReturnInvalidPixelBufferAttributes, -6682), (kCVReturnPixelBufferNotOpenGLCompatible, -6683),
            (kCVReturnPixelBufferNotMetalCompatible, -6684), (kCVReturnWouldExceedAllocationThreshold, -6689),
            (kCVReturnPoolAllocationFailed, -6690), (kCVReturnInvalidPoolAttributes, -6691), (kCVReturnRetry, -6692),
            (kCVReturnLast, -6699),
        ]
        for (code, value) in codes { #expect(code == value) }
    }
}
