// What the app programs (RecorderApp, PhotoApp, ScannerApp, WriterApp) share: a one-line
// failure, a wait that lets the main queue run as an app's main thread does, and ffprobe's
// view of a file, which is what a user's player sees.
import Foundation

/// Prints one line naming the program and what failed, and exits 1.
func fail(_ program: String, _ what: String) -> Never {
    print("consumer: \(program): FAILED: \(what)")
    exit(1)
}

/// Runs the main run loop (so main-queue callbacks arrive, as in an app) until `done` or
/// `seconds` pass; returns whether `done` became true.
@discardableResult
func runMainLoop(upTo seconds: Double, until done: () -> Bool = { false }) -> Bool {
    let end = Date(timeIntervalSinceNow: seconds)
    while Date() < end {
        if done() { return true }
        _ = RunLoop.main.run(mode: .default, before: min(end, Date(timeIntervalSinceNow: 0.01)))
    }
    return done()
}

/// What ffprobe reads from a file: each stream's type and, when counted, its decoded frames;
/// the container's duration. Nil when ffprobe cannot read it.
struct Probe {
    struct Stream { var type: String, codec: String, width = 0, height = 0, frames = 0, primaries: String? = nil }
    var streams: [Stream] = []
    var duration = 0.0

    var video: Stream? { streams.first { $0.type == "video" } }
    var audio: Stream? { streams.first { $0.type == "audio" } }

    /// Decodes every frame (`-count_frames`), so a file whose packets do not decode fails here.
    init?(_ url: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-count_frames", "-show_entries",
                             "stream=codec_type,codec_name,width,height,nb_read_frames,color_primaries:format=duration", "-of", "compact=p=0", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        for line in text.split(separator: "\n") {
            var fields: [String: String] = [:]
            for pair in line.split(separator: "|") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            if let type = fields["codec_type"] {
                streams.append(Stream(type: type, codec: fields["codec_name"] ?? "", width: Int(fields["width"] ?? "") ?? 0,
                                      height: Int(fields["height"] ?? "") ?? 0, frames: Int(fields["nb_read_frames"] ?? "") ?? 0,
                                      primaries: fields["color_primaries"].flatMap { $0 == "unknown" ? nil : $0 }))
            } else if let duration = fields["duration"].flatMap(Double.init) {
                self.duration = duration
            }
        }
    }
}

/// A fresh path in the temporary directory for a file a program writes.
func temporaryFile(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(getpid())-\(name)")
    try? FileManager.default.removeItem(at: url)
    return url
}
