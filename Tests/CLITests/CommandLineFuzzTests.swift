import Foundation
import TestSupport
import Testing

/// Command lines that are wrong by construction: a valid base for a command with one
/// mistake put in (a bad value, a repeated or unknown option, a missing value, an extra
/// argument, a bad output path, a camera that cannot do what is asked), sometimes aimed at
/// the sentinel files with --overwrite. Every one must be refused before a camera starts.
enum InvalidCommandLines {
    /// Values no number option takes: out of Swift's `Double` and `Int` grammar's corners
    /// (hex, exponents, inf, nan, signs, spaces), empty, several numbers, other digits.
    static let badNumbers = [
        "", " ", "3e9", "1e10", "1e308", "-1e308", "inf", "-inf", "nan", "NaN", "0x10", "0x1p3", "+5", " 5", "5 ", "5\n", "1,5",
        "1.2.3", "-", "1_000", ".", "e5", "\u{0663}", "\u{FF11}", "99999999999999999999999", "2147483648", "1/0", "5ms ",
    ]

    /// Option, then values it refuses (beyond `badNumbers` for number options).
    static let numberOptions: [String: [String]] = [
        "--fps": ["0", "0.05", "1001", "2147483648", "4294967296"],
        "--count": ["0", "1000001", "1.5", "-3"],
        "--seed": ["-1", "18446744073709551616", "1.0"],
        "--cct": ["999", "100001", "-6500"],
        "--tint": ["151", "-150.5"],
        "--lux": ["-0.1", "200001"],
        "--bias": ["8.1", "-9"],
        "--iso": ["0", "-100", "1000001"],
        "--zoom": ["0", "-2", "1001"],
        "--duration": ["0", "-1", "86401"],
        "--fragment": ["0.0001", "0.09", "61", "1e300", "0"],
        "--settle": ["-1", "10001", "2.5"],
        "--columns": ["7", "2001", "80.5"],
        "--rows": ["2", "1001"],
        "--frames": ["0", "-1"],
        "--cores": ["0", "1025"],
    ]

    /// Option, then values it refuses, for options that take words or shapes.
    static let wordOptions: [String: [String]] = [
        "--preset": ["huge", "", "high ", "HIGH\n", "1280 x 720", "4k4k"],
        "--pixel-format": ["rgb24", "", "420", "raw "],
        "--hdr": ["maybe", "", "1", "yes"],
        "--color-space": ["adobe", "", "P3 "],
        "--exposure-mode": ["manual", "", "lock"],
        "--flash": ["sometimes", "", "1"],
        "--codec": ["vp9", "", "H264 ", "av1"],
        "--gravity": ["wide", "", "FIT\t"],
        "--scene": ["beach", "flat:2", "flat", "image:", "flat:0x1", "flat:-0.1", "chart:1", "", "flat:nan"],
        "--wb": ["sideways", "1,2,3,4", "0.5,1,1", "500", "5000,400", "1, 1, 1", "", ",", "5000,", "inf,1,1"],
        "--shutter": ["0", "3601", "1/0", "0ms", "fast", "1/", "ms", "1/-250", "1e-3", "4 ms"],
        "--focus": ["1.1", "-0.1", "sharp", ""],
        "--torch": ["0", "1.1", "bright", ""],
        "--rotation": ["45", "360", "-90", "90.0", ""],
        "--size": ["1280xabcx720", "0x0", "8193x8193", "1280x", "x720", "-1280x720", "1280x720 ", "65536x65536", "1280*720", "1e3x720", ""],
        "--device": ["", " sim:back-wide", "sim:back-wide\n", "nope", "sim back"],
    ]

    struct Command {
        let name: String
        let base: [String]
        /// Options it takes that a mistake can be put in.
        let options: [String]
        let switches: [String]
        /// Whether it writes `-o FILE`, and whether it takes --overwrite.
        let output: Bool
        let overwrite: Bool
    }

    static let camera = [
        "--device", "--preset", "--size", "--fps", "--seed", "--cct", "--tint", "--scene", "--lux", "--hdr", "--color-space", "--wb",
        "--exposure-mode", "--shutter", "--iso", "--bias", "--focus", "--zoom", "--torch", "--rotation",
    ]

    static let commands = [
        Command(
            name: "frames", base: ["--preset", "352x288", "--count", "2", "--virtual-time", "-o", "out.y4m"],
            options: camera + ["--pixel-format", "--count"], switches: ["--virtual-time", "--mirror", "--overwrite"], output: true, overwrite: true),
        Command(
            name: "photo", base: ["--virtual-time", "--settle", "0", "-o", "out.jpg"], options: camera + ["--flash", "--settle"],
            switches: ["--virtual-time", "--mirror", "--overwrite"], output: true, overwrite: true),
        Command(
            name: "record", base: ["--preset", "352x288", "--duration", "0.2", "--virtual-time", "-o", "out.mp4"],
            options: camera + ["--duration", "--fragment", "--codec"], switches: ["--virtual-time", "--mirror", "--overwrite"], output: true,
            overwrite: true),
        Command(
            name: "preview", base: ["--columns", "20", "--rows", "5", "--frames", "1", "--virtual-time"],
            options: camera + ["--columns", "--rows", "--gravity", "--frames"], switches: ["--virtual-time", "--mirror"], output: false,
            overwrite: false),
        Command(name: "wb", base: ["--temperature", "5000"], options: ["--device"], switches: ["--json"], output: false, overwrite: false),
        Command(name: "formats", base: ["--json"], options: ["--device"], switches: ["--json"], output: false, overwrite: false),
        Command(name: "devices", base: ["--json"], options: [], switches: ["--json"], output: false, overwrite: false),
        Command(
            name: "bench", base: ["--skip-peers", "--throughput-only", "--frames", "30"], options: ["--frames", "--cores"],
            switches: ["--skip-peers", "--throughput-only"], output: false, overwrite: false),
        Command(
            name: "bench-v4l2", base: ["--frames", "10", "--size", "64x64"], options: ["--frames", "--size", "--device"], switches: [],
            output: false, overwrite: false),
    ]

    /// Mistakes only the camera can tell: each valid on its own terms, refused once the
    /// device, its formats or the other options are looked at.
    static let cameraMistakes: [[String]] = [
        ["--device", "sim:front-wide", "--torch", "on"], ["--preset", "4k", "--device", "sim:front-wide"], ["--size", "123x45"],
        ["--fps", "1000"], ["--hdr", "on", "--preset", "640x480"], ["--iso", "10"], ["--shutter", "5"], ["--zoom", "17"],
        ["--exposure-mode", "locked", "--iso", "200"], ["--preset", "640x480", "--size", "640x480"],
        ["--scene", "image:/no/such/picture.png"], ["--device", "sim:back-ultrawide", "--focus", "auto"], ["--size", "1280x720", "--fps", "241"],
        ["--color-space", "p3", "--preset", "640x480"], ["--wb", "1500"], ["--scene", "image:pipe.y4m"], ["--scene", "image:folder.y4m"],
    ]

    /// One wrong command line, and what was put wrong in it.
    static func make(_ random: inout SplitMix64) -> (arguments: [String], mistake: String) {
        let command = random.pick(commands)
        var words = command.base
        var mistake: String
        var aimsAtOutput = false
        func setOption(_ name: String, _ value: String) {
            if let index = words.firstIndex(of: name), index + 1 < words.count {
                words[index + 1] = value
            } else {
                words += [name, value]
            }
        }
        switch random.below(command.output ? 11 : 9) {
        case 0, 1, 2:
            let candidates = command.options.filter { numberOptions[$0] != nil || wordOptions[$0] != nil }
            if candidates.isEmpty { fallthrough }
            let option = random.pick(candidates)
            let values = numberOptions[option].map { $0 + badNumbers } ?? wordOptions[option]!
            let value = random.pick(values)
            setOption(option, value)
            mistake = "bad value \(option) \(value.debugDescription)"
        case 3:
            let choices = command.options.filter { words.contains($0) } + command.switches.filter { words.contains($0) }
            if let option = choices.isEmpty ? nil : random.pick(choices) {
                let index = words.firstIndex(of: option)!
                let isSwitch = command.switches.contains(option)
                words += isSwitch ? [option] : [option, words[index + 1]]
                mistake = "repeated \(option)"
            } else {
                words += ["--wobble"]
                mistake = "unknown option"
            }
        case 4:
            let option = random.pick(["--wobble", "-x", "--FPS", "--fps-", "---fps", "--=", "-oo", "--json=", "-", "--"])
            words.insert(option, at: random.below(words.count + 1))
            mistake = "unknown option or argument \(option)"
        case 5:
            let takesValue = command.options + (command.output ? ["-o"] : [])
            if takesValue.isEmpty { fallthrough }
            let option = random.pick(takesValue)
            if random.chance(50) || command.switches.isEmpty {
                words = words.filter { $0 != option } + [option]
                mistake = "\(option) without a value at the end"
            } else {
                words += [option, random.pick(command.switches)]
                mistake = "\(option) followed by an option instead of a value"
            }
            if option == "-o" { aimsAtOutput = true }
        case 6:
            let extra = random.pick(["extra", "x.y4m", "-3", "sim:back-wide", "1280x720"])
            if command.name == "formats" {
                words += ["sim:back-wide", "--device", "sim:back-wide"]
                mistake = "a device as argument and as --device"
            } else if command.name == "wb" {
                words += random.pick([["--xy", "0,0"], ["--gains", "1,1,1"], ["--xy", "0.3,0.8"], ["--xy", "0.5"]])
                mistake = "a second or bad conversion"
            } else {
                words.insert(extra, at: random.below(words.count + 1))
                mistake = "extra argument \(extra)"
            }
        case 7:
            let switchName = command.switches.isEmpty ? "--json" : random.pick(command.switches)
            words.append(switchName + random.pick(["=yes", "=", "=1"]))
            mistake = "a value for switch \(switchName)"
        case 8:
            if ["frames", "photo", "record", "preview"].contains(command.name) {
                words += random.pick(cameraMistakes)
                mistake = "a mistake the camera tells"
            } else {
                words += ["--device", random.pick(["nope", "", "sim:nope"])]
                mistake = "an unknown device"
            }
        case 9:
            // Outputs that must be refused: names of folders, missing folders, existing files
            // without --overwrite, and for record the things only a stream can be.
            var paths = ["", "dir/", "out.y4m/", ".", "..", "no/such/folder/x", " out", "a\nb", "kept.y4m", "link.y4m", "folder.y4m", "target.y4m/"]
            if command.name == "record" { paths += ["-", "pipe.y4m", "/dev/null"] }
            let path = random.pick(paths)
            setOption("-o", path)
            if path == "pipe.y4m" || path == "/dev/null" { words.append("--overwrite") }
            mistake = "output \(path.debugDescription)"
            aimsAtOutput = true
        default:
            if command.name == "frames" && random.chance(60) {
                let output = words[words.firstIndex(of: "-o")! + 1]
                words += ["--metadata", random.pick([output, "./" + output, "link.y4m", "kept.y4m"])]
                mistake = "metadata on the output or an existing file"
            } else {
                let index = words.firstIndex(of: "-o")!
                words.removeSubrange(index...(index + 1))
                mistake = "no -o"
                aimsAtOutput = true
            }
        }
        // A valid-looking aim at the sentinels: with the mistake above, none may be touched.
        if command.output && !aimsAtOutput && random.chance(40), let index = words.firstIndex(of: "-o"), index + 1 < words.count {
            words[index + 1] = random.pick(["kept.y4m", "link.y4m", "pipe.y4m", "/dev/null"])
            if command.overwrite { words.append("--overwrite") }
            mistake += ", aimed at \(words[index + 1])"
        }
        return ([command.name] + words, mistake)
    }
}

@Suite("capture command-line fuzz", .serialized)
struct CommandLineFuzzTests {
    static let seed: UInt64 = 0x0C4F_7E57_2025_0011
    static let count = 320

    /// Every generated mistake: exit status 2, exactly one line on standard error, nothing
    /// on standard output, no signal, and the sentinel folder exactly as it was (no file
    /// touched, replaced or created, not even a temporary one).
    @Test("invalid command lines exit 2 with one line, touching no file")
    func invalidCommandLines() throws {
        let sentinels = try Sentinels()
        defer { sentinels.remove() }
        let before = try sentinels.snapshot()
        var random = SplitMix64(seed: Self.seed)
        let cases = (0..<Self.count).map { _ in InvalidCommandLines.make(&random) }
        let started = Date()
        // Two at a time: the machine has two cores, and each run mostly waits on start-up.
        let results = UnsafeMutableBufferPointer<ToolRunner.Output?>.allocate(capacity: cases.count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: cases.count, by: 2) {
                shared[index] = try? ToolRunner.run("capture", cases[index].arguments, directory: sentinels.folder)
            }
        }
        for (index, item) in cases.enumerated() {
            let label = "#\(index) \(item.arguments.map(\.debugDescription).joined(separator: " ")) (\(item.mistake))"
            guard let output = results[index] else {
                Issue.record("could not run \(label)")
                continue
            }
            #expect(output.exited, "died of signal \(output.status): \(label)")
            #expect(output.status == 2, "exit \(output.status): \(label): \(output.stderr)")
            let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2 && lines[0].hasPrefix("capture: ") && lines[1].isEmpty, "not one line: \(label): \(output.stderr.debugDescription)")
            #expect(output.stdoutData.isEmpty, "wrote to standard output: \(label)")
        }
        let after = try sentinels.snapshot()
        #expect(after == before, "the folder changed:\nbefore \(before)\nafter  \(after)")
        let seconds = Date().timeIntervalSince(started)
        print("fuzz: \(cases.count) invocations in \(String(format: "%.1f", seconds)) s")
    }
}
