import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Clips written by our AVAssetWriter, and packet hashes, for the export tests.
enum AssetExportFixture {
    /// Writes `frames` frames of 320x240 H.264 at 30 frames/s (a keyframe every 10) and as
    /// long a 1 kHz mono AAC tone to a new MP4, as a NextLevel-style recorder writes a clip.
    static func clip(frames: Int = 15) async throws -> URL {
        let url = AssetWriterFixture.temporaryURL("mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let video = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240,
                AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: 800_000, AVVideoMaxKeyFrameIntervalKey: 10],
            ])
        let audio = AVAssetWriterInput(
            mediaType: .audio, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 1, AVEncoderBitRateKey: 64_000])
        writer.add(video)
        writer.add(audio)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        let samples = frames * 1600
        var frame = 0, written = 0
        while frame < frames || written < samples {
            if frame < frames && (Double(frame) / 30 <= Double(written) / 48_000 || written >= samples) {
                try await waitReady(video)
                #expect(video.append(AssetWriterFixture.videoSample(AssetWriterFixture.frame(width: 320, height: 240), at: CMTime(value: Int64(frame), timescale: 30))))
                frame += 1
            } else {
                try await waitReady(audio)
                let count = min(1024, samples - written)
                #expect(audio.append(AssetWriterFixture.audioSample(AssetWriterFixture.tone(first: written, count: count), at: CMTime(value: Int64(written), timescale: 48_000))))
                written += count
            }
        }
        await writer.finishWriting()
        try #require(writer.status == .completed, "\(String(describing: writer.error))")
        return url
    }

    static func waitReady(_ input: AVAssetWriterInput, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await input.waitUntilReady(sourceLocation: sourceLocation)
    }

    /// The MD5 of each packet's data of a stream ("v" or "a"), in decode order (ffprobe).
    static func packetHashes(_ url: URL, _ stream: String) throws -> [String] {
        let text = try FFprobe.text(
            url.path, ["-select_streams", "\(stream):0", "-show_packets", "-show_data_hash", "MD5", "-show_entries", "packet=data_hash", "-of", "csv=p=0"])
        // One "MD5:…" a packet (side data such as AAC's skip samples may share its lines).
        return text.components(separatedBy: "MD5:").dropFirst().map { String($0.prefix(32)) }
    }

    /// A composition of the assets' whole tracks one after the other.
    static func joined(_ urls: [URL]) throws -> AVMutableComposition {
        let composition = AVMutableComposition()
        for url in urls {
            let asset = AVURLAsset(url: url)
            try composition.insertTimeRange(CMTimeRange(start: .zero, duration: asset.duration), of: asset, at: composition.duration)
        }
        return composition
    }

    /// Exports and waits for the completion handler.
    static func export(_ session: AVAssetExportSession, to url: URL, as type: AVFileType) async {
        session.outputURL = url
        session.outputFileType = type
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            session.exportAsynchronously { continuation.resume() }
        }
    }

    static func code(_ error: (any Error)?) -> Int? { (error as? AVError)?.errorCode }
}
