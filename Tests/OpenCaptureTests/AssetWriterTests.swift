import Foundation
import Testing

@testable import OpenCapture

/// AVAssetWriter: files read back with ffprobe and ffmpeg.
@Suite("Asset writer")
struct AssetWriterTests {
    typealias Fixture = AssetWriterFixture

    static func videoSettings(_ codec: AVVideoCodecType = .h264, extra: [String: Any] = [:]) -> [String: Any] {
        var properties: [String: Any] = [AVVideoExpectedSourceFrameRateKey: 30]
        properties.merge(extra) { $1 }
        return [AVVideoCodecKey: codec, AVVideoWidthKey: 352, AVVideoHeightKey: 288, AVVideoCompressionPropertiesKey: properties]
    }

    static var aacSettings: [String: Any] {
        [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1, AVEncoderBitRateKey: 64_000]
    }

    static func item(_ key: AVMetadataKey, _ value: any NSCopying & NSObjectProtocol, space: AVMetadataKeySpace = .common) -> AVMetadataItem {
        let item = AVMutableMetadataItem()
        item.keySpace = space
        item.key = key.rawValue as NSString
        item.value = value
        return item
    }

    @Test("QuickTime movie: H.264 from a pixel buffer adaptor's pool, AAC audio in sync, metadata, rotation, profile")
    func movieWithAudio() async throws {
        let url = Fixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let video = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: Self.videoSettings(extra: [
                AVVideoProfileLevelKey: AVVideoProfileLevelH264MainAutoLevel, AVVideoAverageBitRateKey: 1_000_000,
                AVVideoMaxKeyFrameIntervalKey: 10,
            ]))
        video.expectsMediaDataInRealTime = true
        video.transform = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 288, ty: 0)  // 90° clockwise, as iOS portrait
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: Self.aacSettings)
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: video,
            sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 352, kCVPixelBufferHeightKey as String: 288])
        #expect(writer.canAdd(video) && writer.canAdd(audio))
        writer.add(video)
        writer.add(audio)
        #expect(!writer.canAdd(AVAssetWriterInput(mediaType: .audio, outputSettings: Self.aacSettings)), "one track per media type")
        writer.metadata = [
            Self.item(.commonKeyTitle, "Asset writer test" as NSString),
            Self.item(.quickTimeMetadataKeyMake, "OpenCapture" as NSString, space: .quickTimeMetadata),
            Self.item(.commonKeyModel, "Simulated" as NSString),
            Self.item(.commonKeyLocation, "+48.8577+002.2950/" as NSString),
            Self.item(.commonKeyCreationDate, Date(timeIntervalSince1970: 1_700_000_000) as NSDate),
        ]
        #expect(adaptor.pixelBufferPool == nil, "no pool before startWriting")
        #expect(writer.startWriting())
        #expect(writer.status == .writing)
        let pool = try #require(adaptor.pixelBufferPool)
        let start = CMTime(value: 10, timescale: 1)
        writer.startSession(atSourceTime: start)
        var frames = 0, audioSamples = 0
        while frames < 30 || audioSamples < 48_000 {
            // Interleave by time, waiting on back-pressure as a capture app's queues would.
            let videoTime = Double(frames) / 30, audioTime = Double(audioSamples) / 48_000
            if frames < 30 && (videoTime <= audioTime || audioSamples >= 48_000) {
                try await waitReady(video)
                #expect(adaptor.append(Fixture.frame(pool: pool), withPresentationTime: start + CMTime(value: Int64(frames), timescale: 30)))
                frames += 1
            } else {
                try await waitReady(audio)
                let count = min(1024, 48_000 - audioSamples)
                #expect(audio.append(Fixture.audioSample(Fixture.tone(first: audioSamples, count: count), at: start + CMTime(value: Int64(audioSamples), timescale: 48_000))))
                audioSamples += count
            }
        }
        await writer.finishWriting()
        #expect(writer.status == .completed, "\(String(describing: writer.error))")

        let probe = try Fixture.probe(url)
        let v = try #require(Fixture.stream(probe, "video"))
        #expect(v["codec_name"] as? String == "h264" && v["profile"] as? String == "Main")
        #expect(v["width"] as? Int == 352 && v["height"] as? Int == 288)
        #expect(v["nb_read_frames"] as? String == "30")
        let rotation = (v["side_data_list"] as? [[String: Any]])?.compactMap { $0["rotation"] as? Int }.first
        #expect(rotation == -90)
        let a = try #require(Fixture.stream(probe, "audio"))
        #expect(a["codec_name"] as? String == "aac" && a["sample_rate"] as? String == "48000" && a["channels"] as? Int == 1)
        let videoStart = try #require(Fixture.number(v["start_time"])), audioStart = try #require(Fixture.number(a["start_time"]))
        #expect(abs(videoStart - audioStart) < 0.001, "the tracks start together")
        #expect(abs((Fixture.number(a["duration"]) ?? 0) - 1) < 0.03)
        #expect(abs((Fixture.number(probe.format["duration"]) ?? 0) - 1) < 0.03)
        let tags = probe.format["tags"] as? [String: String] ?? [:]
        #expect(tags["title"] == "Asset writer test")
        #expect(tags["make"] == "OpenCapture" && tags["model"] == "Simulated")
        #expect(tags["location"] == "+48.8577+002.2950/")
        #expect(tags["creation_time"]?.hasPrefix("2023-11-14T22:13:20") == true)
    }

    /// Waits (without a fixed sleep) until the input takes more data.
    func waitReady(_ input: AVAssetWriterInput, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await input.waitUntilReady(sourceLocation: sourceLocation)
    }

    @Test("fragmented MP4: a 'moof' every half second from sequence number 5, HEVC tagged hvc1")
    func fragments() async throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let codec: AVVideoCodecType = AVCaptureVideoDataOutput().availableVideoCodecTypesForAssetWriter(writingTo: .mp4).contains(.hevc) ? .hevc : .h264
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: Self.videoSettings(codec))
        writer.add(video)
        writer.movieFragmentInterval = CMTime(value: 1, timescale: 2)
        writer.initialMovieFragmentSequenceNumber = 5
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let frame = Fixture.frame()
        for index in 0..<30 {
            try await waitReady(video)
            video.append(Fixture.videoSample(frame, at: CMTime(value: Int64(index), timescale: 30)))
        }
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let boxes = try Fixture.boxes(url)
        #expect(Array(boxes.types.prefix(2)) == ["ftyp", "moov"])
        #expect(boxes.types.filter { $0 == "moof" }.count == 2)
        #expect(boxes.firstSequence == 5)
        let probe = try Fixture.probe(url)
        let v = try #require(Fixture.stream(probe, "video"))
        #expect(v["codec_name"] as? String == (codec == .hevc ? "hevc" : "h264"))
        if codec == .hevc { #expect(v["codec_tag_string"] as? String == "hvc1") }
        #expect(v["nb_read_frames"] as? String == "30")
    }

    @Test("linear PCM in a QuickTime movie: ffmpeg decodes the very samples appended")
    func linearPCM() async throws {
        let url = Fixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let settings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: false, AVLinearPCMIsNonInterleaved: false,
        ]
        #expect(!writer.canApply(outputSettings: settings, forMediaType: .video))
        #expect(try !AVAssetWriter(outputURL: url, fileType: .mp4).canApply(outputSettings: settings, forMediaType: .audio), "no PCM in MP4")
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: settings)
        writer.add(audio)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: CMTime(value: 5, timescale: 1))
        let samples = Fixture.tone(first: 0, count: 4800)
        for chunk in 0..<4 {
            try await waitReady(audio)
            let part = Array(samples[chunk * 1200..<(chunk + 1) * 1200])
            audio.append(Fixture.audioSample(part, at: CMTime(value: 5 * 48_000 + Int64(chunk * 1200), timescale: 48_000)))
        }
        audio.markAsFinished()
        await writer.finishWriting()
        #expect(writer.status == .completed)
        let a = try #require(Fixture.stream(try Fixture.probe(url), "audio"))
        #expect(a["codec_name"] as? String == "pcm_s16le")
        let decoded = try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-f", "s16le", "-"])
        let values = decoded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(values == samples)
    }

    @Test("nil audio settings with a linear PCM hint pass the samples through into a QuickTime movie")
    func passthroughAudio() async throws {
        let url = Fixture.temporaryURL("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        #expect(!writer.canAdd(AVAssetWriterInput(mediaType: .audio, outputSettings: nil)), "without a hint the format is unknown")
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: nil, sourceFormatHint: Fixture.monoFormat)
        #expect(try !AVAssetWriter(outputURL: url, fileType: .mp4).canAdd(audio), "passthrough only into QuickTime")
        writer.add(audio)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let samples = Fixture.tone(first: 0, count: 2048)
        audio.append(Fixture.audioSample(samples, at: .zero))
        await writer.finishWriting()
        #expect(writer.status == .completed)
        #expect(Fixture.stream(try Fixture.probe(url), "audio")?["codec_name"] as? String == "pcm_s16le")
        let decoded = try Fixture.run("/usr/bin/ffmpeg", ["-v", "error", "-i", url.path, "-f", "s16le", "-"])
        #expect(decoded.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } == samples)
    }

    @Test("requestMediaDataWhenReady: the block is called again each time the queue drains, until markAsFinished")
    func backPressure() async throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: Self.videoSettings())
        writer.add(video)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let frame = Fixture.frame()
        let counts = Mutex((calls: 0, appended: 0, refusedWhileReady: 0))
        let queue = DispatchQueue(label: "test.requests")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            video.requestMediaDataWhenReady(on: queue) {
                counts.withLock { $0.calls += 1 }
                while video.isReadyForMoreMediaData {
                    let index = counts.withLock { $0.appended }
                    if index == 20 {
                        video.markAsFinished()
                        done.resume()
                        return
                    }
                    if !video.append(Fixture.videoSample(frame, at: CMTime(value: Int64(index), timescale: 30))) {
                        counts.withLock { $0.refusedWhileReady += 1 }
                    }
                    counts.withLock { $0.appended += 1 }
                }
            }
        }
        #expect(!video.isReadyForMoreMediaData, "finished inputs take no more")
        await writer.finishWriting()
        let (calls, appended, refused) = counts.withLock { ($0.calls, $0.appended, $0.refusedWhileReady) }
        #expect(appended == 20 && refused == 0)
        #expect(calls > 1, "the block returned when the input was full and was called again")
        #expect(try Fixture.stream(Fixture.probe(url), "video")?["nb_read_frames"] as? String == "20")
    }

    @Test("endSession(atSourceTime:) ends the movie there: the last frame lasts until it")
    func endSession() async throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let video = AVAssetWriterInput(mediaType: .video, outputSettings: Self.videoSettings())
        writer.add(video)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let frame = Fixture.frame()
        for index in 0..<15 {
            try await waitReady(video)
            video.append(Fixture.videoSample(frame, at: CMTime(value: Int64(index), timescale: 30)))
        }
        writer.endSession(atSourceTime: CMTime(value: 1, timescale: 1))
        await writer.finishWriting()
        let probe = try Fixture.probe(url)
        #expect(Fixture.stream(probe, "video")?["nb_read_frames"] as? String == "15")
        #expect(abs((Fixture.number(probe.format["duration"]) ?? 0) - 1) < 0.001)
    }

    @Test("an existing file fails startWriting with AVError.fileAlreadyExists; cancelWriting deletes the file")
    func failures() throws {
        let url = Fixture.temporaryURL("mp4")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: AVError.self) { try AVAssetWriter(outputURL: url, fileType: .jpg) }
        #expect(throws: AVError.self) { try AVAssetWriter(outputURL: URL(string: "https://example.com/a.mp4")!, fileType: .mp4) }
        _ = FileManager.default.createFile(atPath: url.path, contents: Data([1, 2, 3]))
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: Self.videoSettings()))
        #expect(!writer.startWriting())
        #expect(writer.status == .failed)
        #expect((writer.error as? AVError)?.code == .fileAlreadyExists)
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]), "the file is left alone")
        try FileManager.default.removeItem(at: url)

        let second = try AVAssetWriter(outputURL: url, fileType: .m4a)
        #expect(!second.canAdd(AVAssetWriterInput(mediaType: .video, outputSettings: Self.videoSettings())), "M4A holds audio only")
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: Self.aacSettings)
        second.add(audio)
        #expect(second.startWriting())
        #expect(FileManager.default.fileExists(atPath: url.path))
        second.cancelWriting()
        #expect(second.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!audio.isReadyForMoreMediaData)
    }

    @Test("recommended settings from the video and audio data outputs make inputs a writer accepts")
    func recommendedSettings() throws {
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        session.addOutput(output)
        #expect(output.availableVideoCodecTypesForAssetWriter(writingTo: .m4a).isEmpty)
        #expect(output.availableVideoCodecTypesForAssetWriter(writingTo: .mp4).contains(.h264))
        let settings = try #require(output.recommendedVideoSettings(forVideoCodecType: .h264, assetWriterOutputFileType: .mp4))
        #expect(settings[AVVideoWidthKey] as? Int == 352 && settings[AVVideoHeightKey] as? Int == 288)
        #expect(settings[AVVideoCodecKey] as? AVVideoCodecType == .h264)
        #expect(output.recommendedVideoSettingsForAssetWriter(writingTo: .jpg) == nil)
        let writer = try AVAssetWriter(outputURL: Fixture.temporaryURL("mp4"), fileType: .mp4)
        #expect(writer.canAdd(AVAssetWriterInput(mediaType: .video, outputSettings: settings)))
        let recommended = try #require(output.recommendedVideoSettingsForAssetWriter(writingTo: .mov))
        #expect(writer.canApply(outputSettings: recommended, forMediaType: .video))
    }
}
