import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// ffprobe's colour primaries of a movie's video stream.
private func primaries(_ url: URL) -> String? {
    let text = try? FFprobe.text(url.path, ["-select_streams", "v:0", "-show_entries", "stream=color_primaries", "-of", "csv=p=0"])
    return text?.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("Movies in each colour space", .serialized)
struct MovieColorSpaceTests {
    /// A movie recorded in P3_D65 says so (SMPTE EG 432-1 primaries); in sRGB, BT.709.
    @Test(arguments: [AVCaptureColorSpace.sRGB, .P3_D65])
    func moviePrimariesFollowTheColourSpace(colorSpace: AVCaptureColorSpace) throws {
        let output = AVCaptureMovieFileOutput()
        output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
        let rig = try TestRig(preset: .hd1280x720)
        defer {
            rig.stop()
            try? rig.device.lockForConfiguration()
            try? rig.device.setActiveColorSpace(.sRGB)
            rig.device.unlockForConfiguration()
        }
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        rig.session.addOutput(output)
        try rig.device.lockForConfiguration()
        try rig.device.setActiveColorSpace(colorSpace)
        rig.device.unlockForConfiguration()
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("movie-\(UUID().uuidString)-\(colorSpace.rawValue).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .maximumDurationReached)
        #expect(primaries(url) == (colorSpace == .P3_D65 ? "smpte432" : "bt709"))
    }
}
