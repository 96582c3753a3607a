import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// ffprobe's `entries` of a movie's video stream, one line each.
private func probe(_ url: URL, _ entries: String) -> [String] {
    let text = try? FFprobe.text(url.path, ["-select_streams", "v:0", "-show_entries", "stream=\(entries)", "-of", "default=nw=1:nk=1"])
    return (text ?? "").split(separator: "\n").map(String.init)
}

@Suite("HLG movies", .serialized)
struct HLGMovieTests {
    /// A 10-bit HLG recording: HEVC Main 10 from the 'x420' frames, tagged BT.2020
    /// primaries and matrix with the ARIB STD-B67 transfer; H.264 stays 8-bit but keeps the
    /// HLG tags.
    @Test(arguments: [AVVideoCodecType.hevc, .h264])
    func hlgMovieIsTaggedAndTenBit(codec: AVVideoCodecType) throws {
        let rig = try TestRig(preset: .hd1920x1080)
        let output = AVCaptureMovieFileOutput()
        output.maxRecordedDuration = CMTime(value: 1, timescale: 3)
        defer {
            rig.stop()
            rig.device.core.format.colorSpace = 0
            try? rig.device.lockForConfiguration()
            if let format = rig.device.formats.first(where: { $0.formatDescription.dimensions.width == 1280 && !$0.isVideoBinned }) {
                try? rig.device.setActiveFormat(format)
            }
            rig.device.unlockForConfiguration()
        }
        rig.session.automaticallyConfiguresCaptureDeviceForWideColor = false
        rig.session.addOutput(output)
        let tenBit = try #require(rig.device.formats.first {
            $0.formatDescription.mediaSubType.rawValue == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
                && $0.formatDescription.dimensions.width == 1920
        })
        try rig.device.lockForConfiguration()
        try rig.device.setActiveFormat(tenBit)
        try rig.device.setActiveColorSpace(.HLG_BT2020)
        rig.device.unlockForConfiguration()
        rig.output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange]
        let connection = try #require(output.connection(with: .video))
        output.setOutputSettings([AVVideoCodecKey: codec], for: connection)
        rig.session.startRunning()
        try rig.collector.waitForFrames(2)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hlg-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = RecordingRecorder()
        output.startRecording(to: url, recordingDelegate: delegate)
        try delegate.wait()
        #expect(delegate.error?.code == .maximumDurationReached)
        let tags = probe(url, "codec_name,profile,pix_fmt,color_space,color_transfer,color_primaries")
        #expect(tags.count == 6, "\(tags)")
        guard tags.count == 6 else { return }
        #expect(tags[0] == (codec == .hevc ? "hevc" : "h264"))
        if codec == .hevc {
            #expect(tags[1] == "Main 10" && tags[2] == "yuv420p10le", "\(tags)")
        } else {
            #expect(tags[2] == "yuv420p", "\(tags)")
        }
        #expect(Array(tags[3...]) == ["bt2020nc", "arib-std-b67", "bt2020"], "\(tags)")
    }
}
