import CaptureCore
import Foundation
import Testing
@testable import V4L2Camera

/// Which frame of the stream a bracket still is, from the frames' own brightness (no device).
@Suite("V4L2 bracket picker")
struct V4L2BracketPickerTests {
    /// An NV12 frame of even luma `level`, stamped `time` ns.
    static func frame(_ level: UInt8, at time: Int64) -> (CVBuffer, FrameMetadata) {
        let buffer = CVBuffer(format: .yuv420BiPlanarVideoRange, width: 64, height: 32)
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = CVPixelBufferGetBaseAddressOfPlane(buffer, 0)!
        memset(base, Int32(level), CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) * 32)
        CVPixelBufferUnlockBaseAddress(buffer, [])
        var metadata = FrameMetadata()
        metadata.presentationTime = CMTime(value: time, timescale: 1_000_000_000)
        return (buffer, metadata)
    }

    static func offer(_ picker: V4L2BracketPicker, _ level: UInt8, at time: Int64) {
        let (buffer, metadata) = frame(level, at: time)
        picker.offer(buffer, metadata)
    }

    /// The frame after the write that still looks like before is passed over; the first
    /// that changed is the still once the next one shows it settled.
    @Test func picksTheFirstFrameShowingTheNewExposureOnceSettled() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 100, at: 1)
        picker.arm(at: 10)
        Self.offer(picker, 100, at: 5)  // stamped before the write: a new baseline
        Self.offer(picker, 101, at: 11)  // after, within the threshold: the old exposure
        Self.offer(picker, 160, at: 12)  // changed
        Self.offer(picker, 161, at: 13)  // settled: 12 is the still
        let pick = try #require(picker.wait(seconds: 0))
        #expect(pick.detected)
        #expect(pick.metadata.presentationTime.value == 12)
        #expect(abs(pick.mean - 160) < 0.5 && pick.baseline.map { abs($0 - 100) < 0.5 } == true)
    }

    /// A frame caught while the sensor switched (half way) is replaced by the next one.
    @Test func aFrameStillMovingIsNotTheStill() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 100, at: 1)
        picker.arm(at: 10)
        Self.offer(picker, 130, at: 11)
        Self.offer(picker, 160, at: 12)
        Self.offer(picker, 160, at: 13)
        let pick = try #require(picker.wait(seconds: 0))
        #expect(pick.detected && pick.metadata.presentationTime.value == 12)
    }

    /// A picture the exposure does not change (vivid's gain): after `patience` frames the
    /// first frame stamped after the write, marked as not seen to change.
    @Test func aPictureThatNeverChangesGivesTheFirstFrameAfterTheWrite() throws {
        let picker = V4L2BracketPicker()
        Self.offer(picker, 90, at: 1)
        picker.arm(at: 10)
        #expect(picker.wait(seconds: 0) == nil)
        for index in 0..<V4L2BracketPicker.patience { Self.offer(picker, 90, at: 11 + Int64(index)) }
        let pick = try #require(picker.wait(seconds: 0))
        #expect(!pick.detected)
        #expect(pick.metadata.presentationTime.value == 11)
    }
}
