import Foundation
import Testing

/// `capture scan` and the objects of `capture frames --metadata`, on a camera filming a
/// QR code from qrencode.
@Suite("capture scan")
struct ScanCommandTests {
    private static func qrPNG(_ text: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("code.png")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/qrencode")
        process.arguments = ["-o", url.path, "-s", "6", "-m", "4", text]
        try process.run()
        process.waitUntilExit()
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

    @Test("capture frames --metadata lists the detected codes in each line's objects")
    func framesMetadataObjects() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Self.qrPNG("in frames", in: folder)
        let y4m = folder.appendingPathComponent("f.y4m"), json = folder.appendingPathComponent("f.jsonl")
        let output = try ToolRunner.run(
            "capture", ["frames"] + Self.camera + ["--scene", "image:\(png.path)", "--count", "4", "-o", y4m.path, "--metadata", json.path])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = try String(contentsOf: json, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let objects = try lines.map { try #require((try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["objects"] as? [[String: Any]]) }
        #expect(objects.last?.first?["string"] as? String == "in frames", "\(objects)")
        #expect(objects.joined().allSatisfy { $0["string"] as? String == "in frames" })
    }
}
