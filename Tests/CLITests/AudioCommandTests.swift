import Foundation
import Testing

/// `capture audio` and the microphones in `capture devices`, through the built tool.
@Suite("capture audio")
struct AudioCommandTests {
    @Test("audio records the simulated microphone to a WAV file ffprobe reads, cut to --duration")
    func recordsWAV() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("room.wav").path
        let output = try ToolRunner.capture("audio", "--duration", "0.1", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("recorded 0.10 s of iPhone Microphone (4800 frames, 48000 Hz)"))
        let probe = try ToolRunner.run(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels,duration_ts", "-of", "csv=p=0", path],
            path: "/usr/bin/ffprobe")
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,48000,1,4800")
        // 44 bytes of header and 4800 16-bit frames.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 44 + 9600)
    }

    @Test("audio refuses a device that is not a microphone, and standard output")
    func refusals() throws {
        let camera = try ToolRunner.capture("audio", "--device", "sim:back-wide", "--duration", "0.1", "-o", "/tmp/never.wav")
        #expect(camera.status == 2)
        #expect(camera.stderr.contains("unknown microphone 'sim:back-wide' (microphones: sim:microphone"), "\(camera.stderr)")
        let stdout = try ToolRunner.capture("audio", "-o", "-")
        #expect(stdout.status == 2)
        #expect(stdout.stderr.contains("audio cannot write to standard output"), "\(stdout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.wav"))
    }

    @Test("devices lists the microphone after the cameras, with its rate in JSON")
    func devicesListsMicrophones() throws {
        let table = try ToolRunner.capture("devices")
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.last?.hasPrefix("sim:microphone") == true && lines.last?.hasSuffix("Microphone") == true, "\(table.stdout)")
        let json = try ToolRunner.capture("devices", "--json")
        let list = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        let microphone = try #require(list.first { $0["uniqueID"] as? String == "sim:microphone" })
        #expect(microphone["mediaType"] as? String == "audio" && microphone["sampleRate"] as? Double == 48_000)
        #expect(microphone["channels"] as? Int == 1 && microphone["isDefault"] as? Bool == true)
    }
}
