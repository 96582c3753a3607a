import Foundation
import MediaIO
import Testing

@testable import OpenCapture

/// AVAsset and AVAssetReader on files our writer makes and files ffmpeg makes.
@Suite("Asset reader")
struct AssetReaderTests {
    typealias Fixture = AssetReaderFixture

    @Test("reads back what AVAssetWriter wrote: frames, times, luma PSNR ≥ 40 dB, size, rate, metadata")
    func writerRoundTrip() async throws {
        let url = AssetWriterFixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let title = AVMutableMetadataItem()
        title.identifier = .quickTimeMetadataTitle
        title.value = "reader round trip" as NSString
        writer.metadata = [title]
        let originals = try await AssetWriterQualityTests.writePaintedFrames(5, with: writer)
        try #require(writer.status == .completed)

        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(abs(duration.seconds - 5.0 / 30) < 0.002)
        #expect(tracks.count == 1)
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(try await track.load(.naturalSize) == CGSize(width: 352, height: 288))
        #expect(abs(track.nominalFrameRate - 30) < 0.1)
        #expect(track.preferredTransform == .identity)
        #expect(track.timeRange.start == .zero)
        let format = try #require(try await track.load(.formatDescriptions).first)
        #expect(CMFormatDescriptionGetMediaSubType(format) == kCMVideoCodecType_H264)
        #expect(track.trackID == 1)
        #expect(track.estimatedDataRate > 0)
        #expect(track.isPlayable && asset.isPlayable)
        let common = try await asset.load(.commonMetadata)
        #expect(common.first { $0.commonKey == .commonKeyTitle }?.stringValue == "reader round trip")
        #expect(asset.metadata.contains { $0.identifier == .quickTimeMetadataTitle })

        let (reader, samples) = try await Fixture.frames(url)
        try #require(samples.count == 5)
        #expect(reader.status == .completed)
        for (index, sample) in samples.enumerated() {
            #expect(CMSampleBufferGetPresentationTimeStamp(sample) == CMTime(value: Int64(index), timescale: 30))
            let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
            let psnr = Fixture.psnr(Fixture.bytes(buffer), originals[index])
            #expect(psnr >= 40, "frame \(index): \(psnr) dB")
        }
    }

    /// ffmpeg-made files: container, output options, the FFmpeg format of ffmpeg's own
    /// decoding to compare with, and the pixel format read.
    static let files: [(String, [String], String, OSType)] = [
        ("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"], "nv12", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
        ("avi", ["-c:v", "mjpeg", "-q:v", "2"], "bgra", kCVPixelFormatType_32BGRA),
        ("y4m", ["-pix_fmt", "yuv420p"], "yuv420p", kCVPixelFormatType_420YpCbCr8PlanarFullRange),
        ("mov", ["-c:v", "libx265", "-tag:v", "hvc1", "-x265-params", "log-level=none"], "nv12", kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange),
    ]

    @Test("ffmpeg-made files (H.264 MP4, MJPEG AVI, Y4M, HEVC MOV): frames, times, pixels as ffmpeg decodes them", arguments: 0..<4)
    func ffmpegFile(_ index: Int) async throws {
        let (ext, options, reference, pixelFormat) = Self.files[index]
        if ext == "mov", !MovieWriter.canEncodeHEVC { return }  // no libx265 on this machine
        let url = try Fixture.video(ext, options)
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(track.naturalSize == CGSize(width: 64, height: 48))
        #expect(abs(track.nominalFrameRate - 10) < 0.01)
        let (reader, samples) = try await Fixture.frames(url, pixelFormat: pixelFormat)
        #expect(reader.status == .completed)
        try #require(samples.count == 5)
        let decoded = try Fixture.reference(url, pixelFormat: reference)
        let frameBytes = decoded.count / 5
        for (index, sample) in samples.enumerated() {
            #expect(CMSampleBufferGetPresentationTimeStamp(sample) == CMTime(value: Int64(index), timescale: 10))
            let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
            #expect(CVPixelBufferGetPixelFormatType(buffer) == pixelFormat)
            let ours = Fixture.bytes(buffer)
            let theirs = decoded[(index * frameBytes)..<(index * frameBytes + ours.count)]
            let psnr = Fixture.psnr(ours, theirs)
            #expect(psnr >= 40, "\(ext) frame \(index): \(psnr) dB")
        }
    }

    @Test("timeRange: reading starts at the frame shown at its start and stops before its end")
    func seeking() async throws {
        let url = try Fixture.video("mp4", frames: 20, ["-c:v", "libx264", "-g", "5", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let range = CMTimeRange(start: CMTime(value: 12, timescale: 10), duration: CMTime(value: 5, timescale: 10))
        let (reader, samples) = try await Fixture.frames(url, range: range)
        #expect(reader.status == .completed)
        #expect(samples.map { CMSampleBufferGetPresentationTimeStamp($0) } == (12..<17).map { CMTime(value: Int64($0), timescale: 10) })
    }

    @Test("WAV: 16-bit PCM read exactly as stored; an audio-only file has no video track")
    func pcmAudio() async throws {
        let url = try Fixture.ffmpeg("wav", input: ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=0.1"], ["-c:a", "pcm_s16le"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        #expect(asset.tracks(withMediaType: .video).isEmpty)
        let track = try #require(asset.tracks(withMediaType: .audio).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false])
        #expect(output.alwaysCopiesSampleData)
        reader.add(output)
        #expect(reader.startReading())
        var pcm = Data()
        for sample in Fixture.drain(output) {
            let block = try #require(CMSampleBufferGetDataBuffer(sample))
            var bytes = [UInt8](repeating: 0, count: CMBlockBufferGetDataLength(block))
            CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: bytes.count, destination: &bytes)
            #expect(CMSampleBufferGetNumSamples(sample) * 2 == bytes.count)
            pcm.append(contentsOf: bytes)
        }
        #expect(reader.status == .completed)
        let stored = try AssetWriterFixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", url.path, "-f", "s16le", "-"])
        #expect(pcm.count == 4800 * 2)
        #expect(pcm == stored)
    }

    @Test("AAC in M4A decoded to 32-bit float PCM: the tone's length and level")
    func aacAudio() async throws {
        let url = try Fixture.ffmpeg("m4a", input: ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=0.2"], ["-c:a", "aac"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let format = try #require(track.formatDescriptions.first as! CMFormatDescription?)
        #expect(format.audioStreamBasicDescription?.mFormatID == kAudioFormatMPEG4AAC)
        #expect(format.audioStreamBasicDescription?.mSampleRate == 48_000)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true])
        reader.add(output)
        #expect(reader.startReading())
        var samples: [Float] = []
        for sample in Fixture.drain(output) {
            let block = try #require(CMSampleBufferGetDataBuffer(sample))
            var floats = [Float](repeating: 0, count: CMBlockBufferGetDataLength(block) / 4)
            floats.withUnsafeMutableBytes { _ = CMBlockBufferCopyDataBytes(block, atOffset: 0, dataLength: $0.count, destination: $0.baseAddress!) }
            samples += floats
        }
        #expect(reader.status == .completed)
        // 9600 samples; AAC's priming and last frame may add up to one 1024-sample frame.
        #expect(abs(samples.count - 9600) <= 1024)
        // ffmpeg's sine source has amplitude 1/8: RMS 0.125/√2 away from the coded edges.
        let middle = samples[2048..<(samples.count - 2048)]
        let rms = (middle.reduce(0.0) { $0 + Double($1 * $1) } / Double(middle.count)).squareRoot()
        #expect(abs(rms - 0.125 / 2.0.squareRoot()) < 0.005, "RMS \(rms)")
    }

    @Test("a rotated track written by AVAssetWriter reads back Apple's transform")
    func rotation() async throws {
        let url = AssetWriterFixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        let portrait = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 48, ty: 0)
        input.transform = portrait
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        input.append(AssetWriterFixture.videoSample(AssetWriterFixture.frame(width: 64, height: 48), at: .zero))
        await writer.finishWriting()
        try #require(writer.status == .completed)
        let track = try #require(try await AVURLAsset(url: url).loadTracks(withMediaType: .video).first)
        #expect(try await track.load(.preferredTransform) == portrait)
        #expect(track.naturalSize == CGSize(width: 64, height: 48))
    }

    @Test("a truncated file without its index fails with AVError.fileFailedToParse; one cut in its media ends early without a crash")
    func truncated() async throws {
        let url = try Fixture.video("mp4", frames: 10, ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        let asset = AVURLAsset(url: url)
        #expect(asset.tracks.isEmpty)
        await #expect(throws: AVError.self) { try await asset.load(.tracks) }
        let reader = try AVAssetReader(asset: asset)
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect((reader.error as? AVError)?.code == .fileFailedToParse)

        let fast = try Fixture.video("mp4", frames: 10, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "faststart"])
        defer { try? FileManager.default.removeItem(at: fast) }
        let whole = try Data(contentsOf: fast)
        try whole.prefix(whole.count * 2 / 3).write(to: fast)
        let (cut, samples) = try await Fixture.frames(fast)
        #expect(samples.count < 10)
        #expect(cut.status == .completed || cut.status == .failed)
    }

    @Test("a file that is not media: no tracks, load throws, reading fails with AVError.fileFormatNotRecognized")
    func notMedia() async throws {
        let url = AssetWriterFixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("This is not a movie.\n".utf8).write(to: url)
        let asset = AVURLAsset(url: url)
        #expect(asset.tracks.isEmpty)
        #expect(asset.duration == .zero)
        #expect(!asset.isPlayable)
        do {
            _ = try await asset.load(.duration)
            Issue.record("load(.duration) did not throw")
        } catch let error as AVError {
            #expect(error.code == .fileFormatNotRecognized)
        }
        let reader = try AVAssetReader(asset: asset)
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        #expect((reader.error as? AVError)?.code == .fileFormatNotRecognized)
    }

    @Test("canAdd: nil settings, a track of another asset, another sample rate; cancelReading")
    func canAddAndCancel() async throws {
        let url = try Fixture.video("mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        defer { try? FileManager.default.removeItem(at: url) }
        let asset = AVURLAsset(url: url), other = AVURLAsset(url: url)
        let track = try #require(asset.tracks.first)
        let reader = try AVAssetReader(asset: asset)
        #expect(!reader.canAdd(AVAssetReaderTrackOutput(track: track, outputSettings: nil)))
        #expect(!reader.canAdd(AVAssetReaderTrackOutput(track: try #require(other.tracks.first), outputSettings: [:])))
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [:])
        #expect(reader.canAdd(output))
        reader.add(output)
        #expect(!reader.canAdd(output))
        #expect(reader.startReading())
        let first = try #require(output.copyNextSampleBuffer())
        #expect(CVPixelBufferGetPixelFormatType(CMSampleBufferGetImageBuffer(first)!) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        reader.cancelReading()
        #expect(reader.status == .cancelled)
        #expect(output.copyNextSampleBuffer() == nil)

        let wav = try Fixture.ffmpeg("wav", input: ["-f", "lavfi", "-i", "sine=sample_rate=48000:duration=0.05"], ["-c:a", "pcm_s16le"])
        defer { try? FileManager.default.removeItem(at: wav) }
        let audio = AVURLAsset(url: wav)
        let audioReader = try AVAssetReader(asset: audio)
        let resampled = AVAssetReaderTrackOutput(
            track: try #require(audio.tracks.first), outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44_100])
        #expect(!audioReader.canAdd(resampled))
    }
}
