import Foundation
import Testing
import TestSupport

/// Reads a `C mono16` Y4M file: its header and each frame's samples.
private func readMono16(_ path: String) throws -> (header: String, frames: [[UInt16]]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let newline = data.firstIndex(of: 0x0A)!
    let header = String(decoding: data[..<newline], as: UTF8.self)
    let fields = header.split(separator: " ")
    let width = Int(fields.first { $0.hasPrefix("W") }!.dropFirst())!
    let height = Int(fields.first { $0.hasPrefix("H") }!.dropFirst())!
    var frames: [[UInt16]] = []
    var offset = newline + 1
    while offset < data.count {
        offset += 6  // "FRAME\n"
        let bytes = data[offset..<(offset + 2 * width * height)]
        frames.append(bytes.withUnsafeBytes { raw in (0..<(width * height)).map { UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)) } })
        offset += 2 * width * height
    }
    return (header, frames)
}

@Suite("capture --scene, --lux, --hdr, --color-space and raw", .serialized)
struct SceneHDRCommandTests {
    @Test("bad scene, light, HDR, colour-space and raw options get one line and exit status 2", arguments: [
        (["--scene", "beach"], "--scene must be one of chart, flat:<reflectance 0...1>, lowlight, hdr, motion, image:<file.png|file.jpg>, not 'beach'"),
        (["--scene", "flat:2"], "needs a reflectance in 0...1, not '2'"),
        (["--scene", "flat"], "--scene flat needs a reflectance"),
        (["--scene", "image:/no/such/file.png"], "cannot read '/no/such/file.png'"),
        (["--scene", "image:/etc/hostname"], "not a PNG or JPEG file"),
        (["--scene", "image:"], "--scene image needs a file"),
        (["--lux", "-3"], "--lux must be a number in 0...200000 lux, not '-3'"),
        (["--lux", "bright"], "--lux must be a number in 0...200000 lux, not 'bright'"),
        (["--hdr", "maybe"], "--hdr must be on, off or auto, not 'maybe'"),
        (["--hdr", "on", "--preset", "640x480"], "--hdr on needs a format with video HDR"),
        (["--color-space", "adobe"], "--color-space must be srgb or p3, not 'adobe'"),
        (["--color-space", "p3", "--preset", "640x480"], "--color-space p3 needs a wide-colour format"),
        (["--pixel-format", "raw", "--rotation", "90"], "it cannot be rotated"),
        (["--pixel-format", "raw", "--mirror"], "it cannot be mirrored"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", ["frames"] + arguments + ["-o", "/tmp/x.y4m"])
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
    }

    /// Raw frames: 16-bit grey Y4M that ffprobe reads as gray16le, the RGGB mosaic of codes
    /// with the black level in them, and black level, ISO, gain and exposure per frame.
    @Test("--pixel-format raw writes the sensor mosaic as mono16 Y4M")
    func rawMosaic() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("raw.y4m").path
        let metadata = folder.appendingPathComponent("raw.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--pixel-format", "raw", "--preset", "640x480", "--scene", "flat:0.5", "--lux", "60", "--count", "4", "--virtual-time",
            "--shutter", "1/100", "--iso", "100", "--metadata", metadata, "-o", video)
        #expect(output.status == 0, "\(output.stderr)")
        let probe = try FFprobe.run(video, ["-count_frames", "-show_entries", "stream=width,height,nb_read_frames,pix_fmt", "-of", "json"])
        #expect(probe.status == 0, "\(probe.stderr)")
        let stream = ((try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as! [String: Any])["streams"] as! [[String: Any]])[0]
        #expect(stream["pix_fmt"] as? String == "gray16le")
        #expect(stream["width"] as? Int == 640 && stream["height"] as? Int == 480)
        #expect(stream["nb_read_frames"] as? String == "4")

        let file = try readMono16(video)
        #expect(file.header.contains(" Cmono16"))
        let frame = file.frames.last!
        // Mean per Bayer site: green strongest on a neutral field (the camera's response), all above black.
        var sums = [Double](repeating: 0, count: 4), counts = [Double](repeating: 0, count: 4)
        for y in 200..<280 {
            for x in 280..<360 {
                let site = (y & 1) * 2 + (x & 1)
                sums[site] += Double(frame[y * 640 + x])
                counts[site] += 1
            }
        }
        let means = zip(sums, counts).map { $0 / $1 }
        #expect(abs(means[1] - means[2]) < 0.02 * means[1], "the two greens \(means)")
        #expect(means[1] > means[0] && means[1] > means[3], "RGGB means \(means)")
        #expect(means.allSatisfy { $0 > 256 + 50 && $0 < 4095 })
        let rows = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.count == 4)
        let last = rows.last!
        #expect(last["black_level"] as? Double == 256)
        #expect(last["iso"] as? Double == 100)
        #expect(abs((last["analog_gain"] as? Double ?? 0) - 100.0 / 34) < 1e-3)
        #expect(abs((last["exposure_duration"] as? Double ?? 0) - 0.01) < 1e-6)
    }

    /// Four times the lux, four times the raw signal above black at a fixed exposure.
    @Test("--lux scales the light on the scene")
    func luxScalesTheSignal() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var signals: [Double] = []
        for lux in ["100", "400"] {
            let video = folder.appendingPathComponent("lux\(lux).y4m").path
            let output = try ToolRunner.capture(
                "frames", "--pixel-format", "raw", "--preset", "640x480", "--scene", "flat:0.18", "--lux", lux, "--count", "2",
                "--virtual-time", "--shutter", "1/1000", "--iso", "100", "-o", video)
            #expect(output.status == 0, "\(output.stderr)")
            let frame = try readMono16(video).frames.last!
            let centre = (200..<280).flatMap { y in (280..<360).map { Double(frame[y * 640 + $0]) - 256 } }
            signals.append(centre.reduce(0, +) / Double(centre.count))
        }
        #expect(abs(signals[1] / signals[0] - 4) < 0.2, "signals \(signals)")
    }

    /// Pictures as scenes (PNG and JPEG), the hdr scene with HDR on, P3: each runs and says so per frame.
    @Test("--scene image, --hdr and --color-space run and show in the metadata")
    func sceneHDRAndColourSpace() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for ext in ["png", "jpg"] {
            let picture = folder.appendingPathComponent("red.\(ext)").path
            let made = try ToolRunner.run(
                "ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0xC03020:s=64x48", "-frames:v", "1", "-y", picture],
                path: "/usr/bin/ffmpeg")
            #expect(made.status == 0, "\(made.stderr)")
            let output = try ToolRunner.capture(
                "frames", "--scene", "image:\(picture)", "--preset", "352x288", "--count", "3", "--virtual-time", "-o",
                folder.appendingPathComponent("image-\(ext).y4m").path)
            #expect(output.status == 0, "\(ext): \(output.stderr)")
        }
        let metadata = folder.appendingPathComponent("hdr.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--scene", "hdr", "--lux", "80", "--hdr", "on", "--color-space", "p3", "--preset", "1920x1080", "--count", "3",
            "--virtual-time", "--metadata", metadata, "-o", folder.appendingPathComponent("hdr.y4m").path)
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.allSatisfy { $0["video_hdr"] as? Bool == true && $0["color_space"] as? String == "p3" })
    }
}
