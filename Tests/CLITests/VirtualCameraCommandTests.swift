import Foundation
import Testing
import TestSupport

/// `capture virtual-camera`: bad flags and a missing daemon refused with one line (status 2);
/// on a daemon of the test's own, the node a pipewiresrc reads frames of the camera's size
/// from, readers reported, and Ctrl-C removing the node with a summary (status 0).
@Suite("capture virtual-camera", .serialized)
struct VirtualCameraCommandTests {
    @Test(
        "bad flags: one line naming the flag, status 2",
        arguments: [
            (["--name", "a/b"], "--name must be 1-64 letters, digits, '-', '_' or '.'"),
            (["--name", String(repeating: "n", count: 65)], "--name must be"),
            (["--description", ""], "--description must be 1-128 characters on one line"),
            (["--duration", "0"], "--duration must be a positive number"),
            (["--fps", "0"], "--fps must be"),
            (["--size", "12"], "--size"),
            (["extra"], "unexpected argument 'extra'"),
            (["--virtual-time"], "--virtual-time"),
        ])
    func refusesBadFlags(arguments: [String], words: String) throws {
        let result = try ToolRunner.run("capture", ["virtual-camera"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(words), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("no PipeWire daemon: one line saying so, status 2")
    func noDaemon() throws {
        let folder = try ToolRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try ChildProcess.run(
            ToolRunner.executable("capture").path, ["virtual-camera", "--preset", "cif352x288", "--duration", "1"],
            environment: ["PIPEWIRE_REMOTE": folder.appendingPathComponent("pipewire-0").path], within: .seconds(60))
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("capture: cannot publish a virtual camera: no PipeWire daemon is running"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test("a reader gets frames of the camera's size; Ctrl-C removes the node", .enabled(if: PipeWireDaemon.isInstalled))
    func publishesUntilInterrupted() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let tool = try ChildProcess(
            ToolRunner.executable("capture"), ["virtual-camera", "--preset", "cif352x288", "--name", "oc-cli-camera", "--description", "CLI test"],
            environment: daemon.environment)
        defer { tool.kill() }
        let node = try #require(daemon.waitForNode(named: "oc-cli-camera"))
        #expect(node.mediaClass == "Video/Source" && node.role == "Camera")

        let file = daemon.directory.appendingPathComponent("cli.raw")
        let reader = try daemon.gstreamer([
            "pipewiresrc", "stream-properties=props,node.name=oc-cli-reader", "num-buffers=10", "!",
            "video/x-raw,format=I420,width=352,height=288", "!", "filesink", "buffer-mode=unbuffered", "location=\(file.path)",
        ])
        try daemon.link(output: "oc-cli-camera", input: "oc-cli-reader")
        let read = try reader.wait(within: .seconds(60))
        #expect(read.succeeded, "\(read.stderr)")
        #expect(try Data(contentsOf: file).count == 10 * 352 * 288 * 3 / 2)

        tool.signal(SIGINT)
        let outcome = try tool.wait(within: .seconds(30))
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("publishing Back Camera as PipeWire camera 'oc-cli-camera' (node \(node.id), 352x288") == true, "\(lines)")
        #expect(lines.contains("a reader opened the camera"), "\(lines)")
        #expect(lines.last?.hasPrefix("published ") == true, "\(lines)")
        #expect(try daemon.nodes().contains { $0.name == "oc-cli-camera" } == false)
    }
}
