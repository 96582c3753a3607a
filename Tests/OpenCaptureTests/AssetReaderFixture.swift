import Foundation
import MediaIO
import Testing

@testable import OpenCapture

/// Files made by ffmpeg and the decoded frames of an asset reader, for the reader tests.
enum AssetReaderFixture {
    /// Makes a file with ffmpeg from lavfi sources; `arguments` are the output options.
    static func ffmpeg(_ ext: String, input: [String], _ arguments: [String]) throws -> URL {
        let url = AssetWriterFixture.temporaryURL(ext)
        _ = try AssetWriterFixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin"] + input + arguments + ["-y", url.path])
        try #require(FileManager.default.fileExists(atPath: url.path), "ffmpeg made no \(ext) file")
        return url
    }

    /// A 64x48 test picture at 10 frames/s, `frames` long.
    static func video(_ ext: String, frames: Int = 5, _ arguments: [String]) throws -> URL {
        try ffmpeg(ext, input: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10"], ["-frames:v", String(frames)] + arguments)
    }

    /// Reads every sample buffer of an output (after `startReading`).
    static func drain(_ output: AVAssetReaderOutput) -> [CMSampleBuffer] {
        var samples: [CMSampleBuffer] = []
        while let sample = output.copyNextSampleBuffer() { samples.append(sample) }
        return samples
    }

    /// Reads the first video track in a pixel format; the reader is returned for its status.
    static func frames(_ url: URL, pixelFormat: OSType = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, range: CMTimeRange? = nil)
        async throws -> (reader: AVAssetReader, samples: [CMSampleBuffer])
    {
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        if let range { reader.timeRange = range }
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat])
        #expect(reader.canAdd(output))
        reader.add(output)
        #expect(reader.startReading())
        return (reader, drain(output))
    }

    /// Plane `plane` of a pixel buffer (the whole buffer for BGRA) without row padding.
    static func bytes(_ buffer: CVPixelBuffer, plane: Int = 0) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planar = CVPixelBufferGetPlaneCount(buffer) > 0
        let base = (planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, plane) : CVPixelBufferGetBaseAddress(buffer))!.assumingMemoryBound(to: UInt8.self)
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) : CVPixelBufferGetBytesPerRow(buffer)
        let rows = planar ? CVPixelBufferGetHeightOfPlane(buffer, plane) : CVPixelBufferGetHeight(buffer)
        let width = planar ? CVPixelBufferGetWidthOfPlane(buffer, plane) * (plane == 0 ? 1 : 2) : CVPixelBufferGetWidth(buffer) * 4
        var out: [UInt8] = []
        out.reserveCapacity(width * rows)
        for y in 0..<rows { out.append(contentsOf: UnsafeBufferPointer(start: base + y * stride, count: width)) }
        return out
    }

    static func psnr(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Double {
        let squared = zip(a, b).reduce(0.0) { sum, pair in
            let difference = Double(pair.0) - Double(pair.1)
            return sum + difference * difference
        }
        return 10 * log10(255 * 255 / max(squared / Double(max(a.count, 1)), 1e-9))
    }

    /// ffmpeg's own decoding of a file: raw frames in an FFmpeg pixel format.
    static func reference(_ url: URL, pixelFormat: String) throws -> Data {
        try AssetWriterFixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-i", url.path, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
    }
}
