import Foundation
import Testing
import TestSupport

/// `capture scan` and the objects of `capture frames --metadata`, on a camera filming a
/// QR code from qrencode.
@Suite("capture scan", .tags(.slow))
struct ScanCommandTests {
    private static func qrPNG(_ text: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("code.png")
        _ = try ChildProcess.run("/usr/bin/qrencode", ["-o", url.path, "-s", "6", "-m", "4", text])
        return url
    }

    private static let camera = ["--device", "sim:back-wide", "--preset", "cif352x288", "--virtual-time"]

    @Test("each code is printed once as a JSON line: type, string, corners, time")
    func scanPrintsCodes() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Self.qrPNG("scan me", in: folder)
        let output = try ToolRunner.run("capture", ["scan"] + Self.camera + ["--scene", "image:\(png.path)", "--frames", "4"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1, "printed once: \(output.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["type"] as? String == "qr")
        #expect(object["object_type"] as? String == "org.iso.QRCode")
        #expect(object["string"] as? String == "scan me")
        let corners = try #require(object["corners"] as? [[Double]])
        #expect(corners.count == 4 && corners.allSatisfy { $0.count == 2 && (0...1).contains($0[0]) && (0...1).contains($0[1]) })
        #expect(object["time"] is Double)
    }

    @Test("--types leaves out the others; a bad type is refused")
    func scanTypes() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Self.qrPNG("not asked for", in: folder)
        let none = try ToolRunner.run("capture", ["scan"] + Self.camera + ["--scene", "image:\(png.path)", "--types", "ean13,code128", "--frames", "4"])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none.stdout) \(none.stderr)")
        let bad = try ToolRunner.capture("scan", "--types", "qr,humanBody")
        #expect(bad.status == 2 && bad.stderr.contains("--types") && bad.stderr.contains("humanBody"), "\(bad.stderr)")
    }

    @Test("capture frames --metadata --types codes lists the detected codes in each line's objects; --metadata alone detects none")
    func framesMetadataObjects() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Self.qrPNG("in frames", in: folder)
        let y4m = folder.appendingPathComponent("f.y4m"), json = folder.appendingPathComponent("f.jsonl")
        func objects(_ types: [String]) throws -> [[[String: Any]]] {
            let output = try ToolRunner.run(
                "capture",
                ["frames"] + Self.camera + ["--scene", "image:\(png.path)", "--count", "4", "--overwrite", "-o", y4m.path, "--metadata", json.path] + types)
            #expect(output.status == 0, "\(output.stderr)")
            let lines = try String(contentsOf: json, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 4)
            return try lines.map { try #require((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["objects"] as? [[String: Any]]) }
        }
        for types in [["--types", "codes"], ["--types", "qr"], ["--types", "ean13,codes"]] {
            let found = try objects(types)
            #expect(found.last?.first?["string"] as? String == "in frames", "\(types): \(found)")
            #expect(found.joined().allSatisfy { $0["string"] as? String == "in frames" }, "\(types)")
        }
        let unasked = try objects([])
        let empty = unasked.allSatisfy { $0.isEmpty }
        #expect(empty, "the QR code is not looked for without --types: \(unasked)")
    }

    /// scikit-image's photo of Eileen Collins (PyPI, installed by install-deps).
    private static var astronaut: String {
        let run = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import os, skimage.data; print(os.path.dirname(skimage.data.__file__))"])
        let folder = (run?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return folder + "/astronaut.png"
    }

    private static let faceCamera = ["--device", "sim:back-wide", "--preset", "640x480", "--virtual-time", "--scene", "image:\(astronaut)"]

    @Test("scan --types face prints the face once, with its number, bounds, roll and yaw; frames --metadata lists it")
    func scanFaces() throws {
        let output = try ToolRunner.run("capture", ["scan"] + Self.faceCamera + ["--types", "face", "--frames", "4"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1, "printed once: \(output.stdout)")
        let line = try #require(lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "face" && object["object_type"] as? String == "face")
        #expect(object["face_id"] is Int && object["roll"] as? Double == 0 && object["yaw"] as? Double == 0)
        // The picture is stretched over the frame: the face square at (0.44, 0.22) of it, 0.18 across.
        let bounds = try #require(object["bounds"] as? [Double])
        #expect(bounds.count == 4 && abs(bounds[0] + bounds[2] / 2 - 0.44) < 0.03 && abs(bounds[1] + bounds[3] / 2 - 0.22) < 0.03, "\(bounds)")

        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let y4m = folder.appendingPathComponent("f.y4m"), json = folder.appendingPathComponent("f.jsonl")
        let frames = try ToolRunner.run("capture", ["frames"] + Self.faceCamera + ["--count", "3", "-o", y4m.path, "--metadata", json.path, "--types", "face"])
        #expect(frames.status == 0, "\(frames.stderr)")
        let last = try #require(try String(contentsOf: json, encoding: .utf8).split(separator: "\n").last)
        let objects = try #require((try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])?["objects"] as? [[String: Any]])
        #expect(objects.contains { $0["type"] as? String == "face" && $0["face_id"] is Int }, "\(objects)")
    }

    @Test("frames --metadata without --types, or with --types none or codes, never looks for faces")
    func framesMetadataWithoutTypesHasNoFaces() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let y4m = folder.appendingPathComponent("f.y4m"), json = folder.appendingPathComponent("f.jsonl")
        for types in [[], ["--types", "none"], ["--types", "codes"]] {
            let frames = try ToolRunner.run(
                "capture", ["frames"] + Self.faceCamera + ["--count", "3", "--overwrite", "-o", y4m.path, "--metadata", json.path] + types)
            #expect(frames.status == 0, "\(frames.stderr)")
            let lines = try String(contentsOf: json, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 3)
            for line in lines {
                let objects = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["objects"] as? [[String: Any]])
                #expect(objects.isEmpty, "the astronaut's face is not looked for: \(objects)")
            }
        }
        let alone = try ToolRunner.capture("frames", "--types", "face", "-o", folder.appendingPathComponent("g.y4m").path)
        #expect(alone.status == 2 && alone.stderr == "capture: --types chooses what --metadata lists; give --metadata FILE too\n", "\(alone.stderr)")
    }
}
