import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// Frames, audio and ffprobe for the asset-writer tests.
enum AssetWriterFixture {
    static func temporaryURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("oc-asset-\(UUID().uuidString).\(ext)")
    }

    /// Runs a tool (through `ChildProcess`) and returns its standard output.
    static func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        try ChildProcess.run(tool, arguments, stderr: .discard, sourceLocation: sourceLocation).stdoutData
    }

    /// ffprobe's JSON of streams (with frame counts) and format, tags included.
    static func probe(_ url: URL) throws -> (streams: [[String: Any]], format: [String: Any]) {
        let json = try FFprobe.json(url.path, ["-count_frames", "-show_streams", "-show_format"])
        return (json["streams"] as? [[String: Any]] ?? [], json["format"] as? [String: Any] ?? [:])
    }

    static func stream(_ probe: (streams: [[String: Any]], format: [String: Any]), _ type: String) -> [String: Any]? {
        probe.streams.first { $0["codec_type"] as? String == type }
    }

    /// The presentation times, in seconds and in presentation order, of the first video
    /// stream's frames as ffprobe decodes them.
    static func framePresentationTimes(_ url: URL) throws -> [Double] {
        let text = try FFprobe.text(url.path, ["-select_streams", "v:0", "-show_entries", "frame=best_effort_timestamp_time", "-of", "default=nw=1:nk=1"])
        return text.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    static func number(_ value: Any?) -> Double? {
        (value as? String).flatMap(Double.init) ?? (value as? Double) ?? (value as? Int).map(Double.init)
    }

    /// A frame: mid-grey with a white 32x32 square at the top left.
    static func frame(width: Int = 352, height: Int = 288, pool: CVPixelBufferPool? = nil) -> CVPixelBuffer {
        var made: CVPixelBuffer?
        if let pool {
            CVPixelBufferPoolCreatePixelBuffer(nil, pool, &made)
        } else {
            CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &made)
        }
        let buffer = made!
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let planes = max(CVPixelBufferGetPlaneCount(buffer), 1)
        let bgra = CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA
        for plane in 0..<planes {
            let base = (planes == 1 ? CVPixelBufferGetBaseAddress(buffer) : CVPixelBufferGetBaseAddressOfPlane(buffer, plane))!
                .assumingMemoryBound(to: UInt8.self)
            let rows = planes == 1 ? CVPixelBufferGetHeight(buffer) : CVPixelBufferGetHeightOfPlane(buffer, plane)
            let stride = planes == 1 ? CVPixelBufferGetBytesPerRow(buffer) : CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            let luma = plane == 0
            for y in 0..<rows {
                for x in 0..<stride {
                    let inSquare = (luma || bgra) ? (y < 32 && x < (bgra ? 128 : 32)) : false
                    base[y * stride + x] = bgra ? (inSquare ? 255 : 128) : luma ? (inSquare ? 235 : 126) : 128
                }
            }
        }
        return buffer
    }

    /// Writes `count` copies of `frame` (default `frame()`) at 30 fps through one video
    /// input with `settings` and `transform`, and finishes; the caller removes the file.
    static func writeFrames(
        _ settings: [String: Any], frame: CVPixelBuffer? = nil, count: Int = 3, transform: CGAffineTransform = .identity
    ) async throws -> (url: URL, writer: AVAssetWriter) {
        let url = temporaryURL("mp4")
        let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
        let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
        input.transform = transform
        writer.add(input)
        writer.startWriting()
        writer.startSession(atSourceTime: .zero)
        let picture = frame ?? self.frame()
        for index in 0..<count {
            try await input.waitUntilReady()
            input.append(videoSample(picture, at: CMTime(value: Int64(index), timescale: 30)))
        }
        await writer.finishWriting()
        return (url, writer)
    }

    /// A video sample buffer of `frame()` at `time`.
    static func videoSample(_ buffer: CVPixelBuffer, at time: CMTime) -> CMSampleBuffer {
        var format: CMFormatDescription?
        CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: buffer, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(duration: CMTime(value: 1, timescale: 30), presentationTimeStamp: time, decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        CMSampleBufferCreateReadyWithImageBuffer(
            allocator: nil, imageBuffer: buffer, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &sample)
        return sample!
    }

    /// 16-bit mono samples of a 1 kHz tone at 48 kHz, starting at sample `first`.
    static func tone(first: Int, count: Int) -> [Int16] {
        (0..<count).map { Int16((sin(2 * Double.pi * 1000 * Double(first + $0) / 48_000) * 8000).rounded()) }
    }

    static var monoFormat: CMAudioFormatDescription {
        let asbd = AudioStreamBasicDescription(
            mSampleRate: 48_000, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2, mFramesPerPacket: 1,
            mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        return try! CMAudioFormatDescription(audioStreamBasicDescription: asbd)
    }

    /// An audio sample buffer of `samples` at `time`.
    static func audioSample(_ samples: [Int16], at time: CMTime) -> CMSampleBuffer {
        let length = samples.count * 2
        var block: CMBlockBuffer?
        CMBlockBufferCreateWithMemoryBlock(
            allocator: nil, memoryBlock: nil, blockLength: length, blockAllocator: nil, customBlockSource: nil, offsetToData: 0,
            dataLength: length, flags: kCMBlockBufferAssureMemoryNowFlag, blockBufferOut: &block)
        samples.withUnsafeBytes { _ = CMBlockBufferReplaceDataBytes(with: $0.baseAddress!, blockBuffer: block!, offsetIntoDestination: 0, dataLength: length) }
        var sample: CMSampleBuffer?
        CMAudioSampleBufferCreateReadyWithPacketDescriptions(
            allocator: nil, dataBuffer: block!, formatDescription: monoFormat, sampleCount: samples.count, presentationTimeStamp: time,
            packetDescriptions: nil, sampleBufferOut: &sample)
        return sample!
    }

    /// Top-level box types of an MP4/QuickTime file, and the first 'mfhd' sequence number.
    static func boxes(_ url: URL) throws -> (types: [String], firstSequence: UInt32?) {
        let data = try Data(contentsOf: url)
        var types: [String] = []
        var sequence: UInt32?
        var offset = 0
        func word(_ at: Int) -> UInt32 { data[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        while offset + 8 <= data.count {
            let size = Int(word(offset))
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            types.append(type)
            // moof → mfhd (first child): size, 'mfhd', version/flags, sequence number.
            if type == "moof", sequence == nil, String(decoding: data[offset + 12..<offset + 16], as: UTF8.self) == "mfhd" {
                sequence = word(offset + 20)
            }
            guard size >= 8 else { break }
            offset += size
        }
        return (types, sequence)
    }
}
