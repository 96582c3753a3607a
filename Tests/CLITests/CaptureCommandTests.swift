import Foundation
import Testing
import TestSupport

@Suite("capture command line", .serialized)
struct CaptureCommandTests {
    @Test("bad command lines get one line naming the problem and exit status 2", arguments: [
        (["bogus"], "unknown command 'bogus'"),
        (["frames", "--device", "nope", "-o", "/tmp/x.y4m"], "unknown device 'nope'"),
        (["frames", "--preset", "huge", "-o", "/tmp/x.y4m"], "--preset must be photo, high, medium, low, 352x288, 640x480, 1280x720, 1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority, not 'huge'"),
        (["frames", "--count", "-3", "-o", "/tmp/x.y4m"], "--count must be a whole number in 1...1000000, not '-3'"),
        (["frames", "--count", "ten", "-o", "/tmp/x.y4m"], "--count must be a whole number in 1...1000000, not 'ten'"),
        (["frames", "--pixel-format", "rgb24", "-o", "/tmp/x.y4m"], "--pixel-format must be 420v, 420f, y420, f420, BGRA or raw, not 'rgb24'"),
        (["frames", "--fps", "1000", "-o", "/tmp/x.y4m"], "--fps 1000 is outside"),
        (["frames", "--fps", "-5", "-o", "/tmp/x.y4m"], "--fps must be a number in 0.1...1000, not '-5'"),
        (["frames", "--size", "123x45", "-o", "/tmp/x.y4m"], "has no 123x45 format"),
        (["frames", "--size", "big", "-o", "/tmp/x.y4m"], "--size must be WxH with sides in 1...8192, as in 1280x720, not 'big'"),
        (["frames", "-o", "/no/such/folder/x.y4m"], "folder '/no/such/folder' does not exist"),
        (["frames"], "missing -o FILE.y4m"),
        (["frames", "--rotation", "45", "-o", "/tmp/x.y4m"], "--rotation must be 0, 90, 180 or 270"),
        (["frames", "--wobble", "-o", "/tmp/x.y4m"], "unknown option '--wobble'"),
        (["frames", "--count"], "--count needs a value"),
        (["formats", "nope"], "unknown device 'nope'"),
        (["devices", "extra"], "unexpected argument 'extra' for devices"),
        (["frames", "--preset", "4k", "--device", "sim:front-wide", "-o", "/tmp/x.y4m"], "does not support preset '4k'"),
        (["bench", "--cores", "0"], "--cores must be a whole number in 1...1024, not '0'"),
        (["bench", "--cores", "1000"], "this process may run on only"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
        #expect(!output.stderr.contains("Fatal error"))
    }

    @Test("devices lists the simulated cameras, as a table and as JSON")
    func devices() throws {
        let table = try ToolRunner.capture("devices")
        #expect(table.status == 0)
        #expect(table.stdout.contains("sim:back-wide") && table.stdout.contains("Front Camera"))
        let json = try ToolRunner.capture("devices", "--json")
        let list = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(list.count >= 4)
        #expect(list.contains { $0["uniqueID"] as? String == "sim:front-wide" && $0["position"] as? String == "front" })
    }

    @Test("formats lists sizes, frame rates and presets")
    func formats() throws {
        let json = try ToolRunner.capture("formats", "sim:back-wide", "--json")
        #expect(json.status == 0)
        let list = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(list.contains { $0["width"] as? Int == 3840 && $0["height"] as? Int == 2160 })
        #expect(list.contains { ($0["presets"] as? [String])?.contains("high") == true })
        let table = try ToolRunner.capture("formats")
        #expect(table.stdout.contains("1920x1080"))
    }

    @Test("frames writes Y4M that ffprobe reads, with metadata per frame")
    func framesToY4M() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.y4m").path
        let metadata = folder.appendingPathComponent("clip.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "640x480", "--fps", "15", "--count", "12", "--virtual-time", "--seed", "3",
            "--metadata", metadata, "-o", video)
        #expect(output.status == 0, "\(output.stderr)")
        let probe = try FFprobe.run(
            video, ["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=width,height,nb_read_frames,r_frame_rate,pix_fmt", "-of", "json"])
        #expect(probe.status == 0, "\(probe.stderr)")
        let info = try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as! [String: Any]
        let stream = (info["streams"] as! [[String: Any]])[0]
        #expect(stream["width"] as? Int == 640)
        #expect(stream["height"] as? Int == 480)
        #expect(stream["nb_read_frames"] as? String == "12")
        #expect(stream["r_frame_rate"] as? String == "15/1")
        let lines = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12)
        let rows = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        for (index, row) in rows.enumerated() {
            #expect(row["sequence"] as? Int == index)
            #expect((row["exposure_duration"] as? Double ?? 0) > 0)
            #expect((row["iso"] as? Double ?? 0) > 0)
        }
        let times = rows.map { $0["presentation_time"] as! Double }
        for (a, b) in zip(times, times.dropFirst()) { #expect(abs(b - a - 1.0 / 15) < 1e-6) }
    }

    @Test("the same seed gives the same file, a different seed a different one")
    func deterministicFrames() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func record(_ name: String, seed: String) throws -> Data {
            let path = folder.appendingPathComponent(name).path
            let output = try ToolRunner.capture("frames", "--preset", "352x288", "--count", "5", "--virtual-time", "--seed", seed, "-o", path)
            #expect(output.status == 0, "\(output.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let first = try record("a.y4m", seed: "9")
        #expect(try record("b.y4m", seed: "9") == first)
        #expect(try record("c.y4m", seed: "10") != first)
    }

    @Test("every pixel format and rotation writes a readable file", arguments: ["420v", "420f", "y420", "f420", "BGRA"])
    func pixelFormats(format: String) throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("f.y4m").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "3", "--virtual-time", "--pixel-format", format, "--rotation", "90", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        let probe = try FFprobe.text(path, ["-show_entries", "stream=width,height", "-of", "csv=p=0"])
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "288,352")
    }
}

@Suite("Examples")
struct ExampleTests {
    @Test("seed 003's walkthrough runs: portrait, camera switch, 15 fps")
    func walkthrough() throws {
        let output = try ToolRunner.run("CaptureWalkthrough", ["0.3"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("back camera, portrait:") && lines[0].contains("of 720x1280"))
        #expect(lines[1].hasPrefix("front camera, portrait, mirrored:") && lines[1].contains("of 720x1280"))
        #expect(lines[2].contains("15.0 fps"), "\(lines[2])")
        #expect(lines[3] == "preview: 360x640, previewing: true")
    }

    @Test("seed 000's configureCameraForHighestFrameRate picks the 240 fps format")
    func highestFrameRate() throws {
        let output = try ToolRunner.run("HighestFrameRate", [])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("at 240 fps, binned: true"), "\(output.stdout)")
    }
}

@Suite("capture wb and white-balance flags", .serialized)
struct WhiteBalanceCommandTests {
    @Test("wb converts between gains, chromaticity and temperature, and the three agree")
    func conversions() throws {
        let fromTemperature = try ToolRunner.capture("wb", "--temperature", "5000,10", "--json")
        #expect(fromTemperature.status == 0, "\(fromTemperature.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(fromTemperature.stdout.utf8)) as! [String: Any]
        #expect(abs((report["temperature"] as! Double) - 5000) < 10)
        #expect(abs((report["tint"] as! Double) - 10) < 0.5)
        #expect(report["gains_in_range"] as? Bool == true)
        let gains = report["gains"] as! [String: Double]
        let fromGains = try ToolRunner.capture("wb", "--gains", "\(gains["red"]!),\(gains["green"]!),\(gains["blue"]!)", "--json")
        let back = try JSONSerialization.jsonObject(with: Data(fromGains.stdout.utf8)) as! [String: Any]
        #expect(abs((back["temperature"] as! Double) - 5000) < 10)
        let xy = back["chromaticity"] as! [String: Double]
        let fromXY = try ToolRunner.capture("wb", "--xy", "\(xy["x"]!),\(xy["y"]!)", "--json")
        let again = try JSONSerialization.jsonObject(with: Data(fromXY.stdout.utf8)) as! [String: Any]
        #expect(abs((again["temperature"] as! Double) - 5000) < 10)
        let text = try ToolRunner.capture("wb", "--temperature", "6500")
        #expect(text.stdout.contains("gains") && text.stdout.contains("chromaticity") && text.stdout.contains("temperature"))
    }

    @Test("bad white-balance input gets one line and exit status 2", arguments: [
        (["wb"], "give one of --gains, --xy or --temperature"),
        (["wb", "--gains", "5,1,1"], "each gain must lie in 1...4"),
        (["wb", "--gains", "1,1"], "--gains must be 3 comma-separated numbers, not '1,1'"),
        (["wb", "--xy", "1.5,0.3"], "--xy must be a chromaticity X,Y with x > 0, y > 0 and x + y < 1, not '1.5,0.3'"),
        (["wb", "--temperature", "50"], "the temperature must lie in 1000...100000 K"),
        (["wb", "--temperature", "5000,400"], "the tint must lie in -150...150"),
        (["wb", "--gains", "1,1,1", "--xy", "0.3,0.3"], "give only one of"),
        (["frames", "--wb", "sideways", "-o", "/tmp/x.y4m"], "--wb must be auto, continuous, K[,TINT] or R,G,B gains, not 'sideways'"),
        (["frames", "--wb", "0.5,1,1", "-o", "/tmp/x.y4m"], "--wb must be R,G,B gains of at least 1 each (up to the device's maximum), not '0.5,1,1'"),
        (["frames", "--cct", "20", "-o", "/tmp/x.y4m"], "--cct must be a number in 1000...100000 K, not '20'"),
        (["frames", "--tint", "900", "-o", "/tmp/x.y4m"], "--tint must be a number in -150...150, not '900'"),
        (["frames", "--wb", "1500", "-o", "/tmp/x.y4m"], "outside 1...4"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("frames under tungsten light with auto white balance records the illuminant and gains")
    func framesWithIlluminant() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("wb.y4m").path
        let metadata = folder.appendingPathComponent("wb.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "40", "--virtual-time", "--cct", "2850", "--wb", "continuous",
            "--metadata", metadata, "-o", video)
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.count == 40)
        #expect(rows.allSatisfy { $0["scene_temperature"] as? Double == 2850 })
        let gains = rows.last!["white_balance_gains"] as! [Double]
        #expect(gains[2] > gains[0], "tungsten needs more blue than red gain")
        let locked = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "5", "--virtual-time", "--wb", "1.5,1,2", "--overwrite", "--metadata", metadata, "-o",
            video)
        #expect(locked.status == 0, "\(locked.stderr)")
        let last = try JSONSerialization.jsonObject(with: Data(String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").last!.utf8)) as! [String: Any]
        #expect(last["white_balance_gains"] as? [Double] == [1.5, 1, 2])
        #expect(last["white_balance_mode"] as? String == "locked")
    }
}

@Suite("capture exposure flags", .serialized)
struct ExposureFlagTests {
    @Test("bad exposure values get one line and exit status 2", arguments: [
        (["frames", "--exposure-mode", "manual", "-o", "/tmp/x.y4m"], "--exposure-mode must be locked, auto, continuous or custom, not 'manual'"),
        (["frames", "--shutter", "fast", "-o", "/tmp/x.y4m"], "--shutter must be seconds (0.004), a fraction (1/250) or milliseconds (4ms), at most 3600 s, not 'fast'"),
        (["frames", "--shutter", "5", "-o", "/tmp/x.y4m"], "outside the format's exposure range"),
        (["frames", "--iso", "10", "-o", "/tmp/x.y4m"], "outside the format's ISO range"),
        (["frames", "--bias", "12", "-o", "/tmp/x.y4m"], "--bias must be a number in -8...8 EV, not '12'"),
        (["frames", "--exposure-mode", "locked", "--iso", "200", "-o", "/tmp/x.y4m"], "need --exposure-mode custom"),
    ])
    func badInput(arguments: [String], message: String) throws {
        let output = try ToolRunner.run("capture", arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("--shutter and --iso set a custom exposure that every frame's metadata shows")
    func customExposure() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let metadata = folder.appendingPathComponent("e.jsonl").path
        let output = try ToolRunner.capture(
            "frames", "--preset", "352x288", "--count", "5", "--virtual-time", "--shutter", "1/100", "--iso", "200",
            "--metadata", metadata, "-o", folder.appendingPathComponent("e.y4m").path)
        #expect(output.status == 0, "\(output.stderr)")
        let rows = try String(contentsOfFile: metadata, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        #expect(rows.count == 5)
        for row in rows {
            #expect(abs((row["exposure_duration"] as? Double ?? 0) - 0.01) < 1e-6)
            #expect(row["iso"] as? Double == 200)
            #expect(row["exposure_mode"] as? String == "custom")
        }
    }
}
