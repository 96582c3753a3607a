import Foundation
import Testing
import TestSupport

/// `capture audio` and the microphones in `capture devices`, through the built tool.
@Suite("capture audio")
struct AudioCommandTests {
    @Test("audio records the simulated microphone to a WAV file ffprobe reads, cut to --duration")
    func recordsWAV() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("room.wav").path
        // By its ID: with a sound card the default microphone is ALSA's default PCM.
        let output = try ToolRunner.capture("audio", "--device", "sim:microphone", "--duration", "0.1", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("recorded 0.10 s of iPhone Microphone (4800 frames, 48000 Hz)"))
        let probe = try FFprobe.run(path, ["-show_entries", "stream=codec_name,sample_rate,channels,duration_ts", "-of", "csv=p=0"])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s16le,48000,1,4800")
        // 44 bytes of header and 4800 16-bit frames.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == 44 + 9600)
    }

    @Test("audio records AAC in an M4A file when FILE ends in .m4a; other extensions are refused")
    func recordsM4A() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("room.m4a").path
        let output = try ToolRunner.capture("audio", "--device", "sim:microphone", "--duration", "0.1", "-o", path)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "only the summary, no FFmpeg chatter: \(output.stderr)")
        let probe = try FFprobe.run(path, ["-show_entries", "stream=codec_name,sample_rate,channels:format=format_name,duration", "-of", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: probe.stdoutData) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first)
        #expect(stream["codec_name"] as? String == "aac" && stream["sample_rate"] as? String == "48000" && stream["channels"] as? Int == 1)
        let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
        #expect(abs(duration - 0.1) < 0.03, "\(probe.stdout)")
        let other = try ToolRunner.capture("audio", "--duration", "0.1", "-o", folder.appendingPathComponent("room.mp3").path)
        #expect(other.status == 2 && other.stderr.contains("audio writes .wav (PCM) or .m4a (AAC) files"), "\(other.stderr)")
    }

    @Test("record records sound from the default microphone (AAC beside H.264); --audio none records picture only")
    func recordWithSound() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func streams(_ path: String) throws -> [String] {
            try FFprobe.text(path, ["-show_entries", "stream=codec_name", "-of", "csv=p=0"]).split(separator: "\n").map(String.init)
        }
        let sound = folder.appendingPathComponent("sound.mp4").path
        let output = try ToolRunner.capture("record", "--preset", "352x288", "--duration", "0.5", "--virtual-time", "-o", sound)
        #expect(output.status == 0, "\(output.stderr)")
        // The default microphone: ALSA's default PCM where a sound card answers, else the simulated one.
        #expect(
            output.stderr.contains(", sound from iPhone Microphone,") || output.stderr.contains(", sound from Default Audio Device,"),
            "\(output.stderr)")
        #expect(try streams(sound) == ["h264", "aac"])
        let silent = folder.appendingPathComponent("silent.mp4").path
        let none = try ToolRunner.capture("record", "--preset", "352x288", "--duration", "0.2", "--virtual-time", "--audio", "none", "-o", silent)
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try streams(silent) == ["h264"])
        let bad = try ToolRunner.capture("record", "--audio", "sim:back-wide", "-o", folder.appendingPathComponent("x.mp4").path)
        #expect(bad.status == 2 && bad.stderr.contains("unknown microphone 'sim:back-wide'"), "\(bad.stderr)")
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

    /// Looking for ALSA's `default` PCM on a machine without a sound card makes libasound print
    /// its own error lines ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'", ...);
    /// they are silenced, and the device is not listed.
    @Test("devices without a sound card: no alsa:default, and no libasound chatter on stderr")
    func noSoundCardNoDefault() throws {
        // Only where ALSA has neither a card nor a configuration that could route `default` to
        // a sound server (as on the test host).
        let config = ["/dev/snd", "/etc/asound.conf", "/etc/alsa/conf.d", "/usr/share/alsa/alsa.conf.d", NSHomeDirectory() + "/.asoundrc"]
        guard !config.contains(where: FileManager.default.fileExists(atPath:)) else { return }
        let table = try ToolRunner.capture("devices")
        #expect(table.status == 0)
        #expect(!table.stdout.contains("alsa:default"), "\(table.stdout)")
        #expect(!table.stderr.contains("ALSA lib"), "\(table.stderr)")
    }
}
