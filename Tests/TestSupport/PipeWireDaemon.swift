import Foundation
import Testing

/// A headless PipeWire daemon of a test's own: `pipewire` with a minimal configuration in a
/// fresh runtime directory, no session manager, no D-Bus, no audio.
///
/// The configuration loads what clients of video streams need and nothing else: the native
/// protocol (the socket), client-node (streams of other processes), the adapter and
/// link-factory (which `pw-link` and our plug-in create links with), metadata, a dummy and a
/// freewheel driver to clock the graph (no sound card drives it), and
/// `libpipewire-module-access`, without which every client's objects stay "busy" and never
/// become usable. No WirePlumber: nothing links a stream by itself, the test does (`link`),
/// so which node reads which is always the test's choice.
///
/// Clients reach it by its socket's absolute path (`socket`): `pw-cli -r`, `PIPEWIRE_REMOTE`
/// for child processes (`environment`), the remote argument of our plug-in. The test
/// process's own environment is never changed, so daemons of several tests never mix.
package final class PipeWireDaemon: @unchecked Sendable {
    /// A node as `pw-dump` shows it.
    package struct Node: Sendable, Equatable {
        package var id: Int
        package var serial: String
        package var name: String
        package var mediaClass: String
        package var role: String
        /// "suspended", "idle", "running", "creating", "error".
        package var state: String
    }

    /// The runtime directory, removed by `stop`.
    package let directory: URL
    /// The daemon's socket, an absolute path.
    package let socket: String
    private let daemon: ChildProcess

    /// Whether `pipewire` and the tools the tests drive it with are installed.
    package static var isInstalled: Bool {
        ["/usr/bin/pipewire", "/usr/bin/pw-dump", "/usr/bin/pw-link", "/usr/bin/gst-launch-1.0"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts a daemon and returns once it answers a client (`pw-cli info 0`). `objects` are
    /// more `context.objects` entries the daemon makes at start (`spaTestCamera`,
    /// `v4l2Camera`): nodes of SPA plug-ins in the daemon itself, as a desktop's are.
    package init(objects: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oc-pipewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("daemon.conf")
        try Self.configuration(objects: objects).write(to: config, atomically: true, encoding: .utf8)
        socket = directory.appendingPathComponent("pipewire-0").path
        daemon = try ChildProcess(
            "/usr/bin/pipewire", ["-c", config.path],
            environment: ["XDG_RUNTIME_DIR": directory.path, "PIPEWIRE_RUNTIME_DIR": directory.path, "PIPEWIRE_DEBUG": "1"],
            stdout: .discard, stderr: .discard)
        let answered = eventually("pipewire answering on \(socket)", within: .seconds(30), checkingEvery: .milliseconds(20)) {
            guard daemon.isRunning else { return true }
            return FileManager.default.fileExists(atPath: socket) && ((try? tool("pw-cli", ["info", "0"]).succeeded) ?? false)
        }
        guard answered, daemon.isRunning else {
            stop()
            throw DaemonFailed(description: "pipewire did not start (\(daemon.command))")
        }
    }

    deinit { stop() }

    /// The daemon failed to start.
    package struct DaemonFailed: Error, CustomStringConvertible {
        package let description: String
    }

    /// Variables that point a child process (gst-launch-1.0, pw-link) at this daemon.
    package var environment: [String: String] {
        ["XDG_RUNTIME_DIR": directory.path, "PIPEWIRE_RUNTIME_DIR": directory.path, "PIPEWIRE_REMOTE": socket]
    }

    /// Whether the daemon is still running.
    package var isRunning: Bool { daemon.isRunning }

    /// Stops the daemon (SIGTERM, SIGKILL if it lingers) and removes its directory.
    package func stop() {
        if daemon.isRunning {
            daemon.signal(SIGTERM)
            if daemon.waitForExit(within: .seconds(10)) == nil { daemon.kill() }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one of PipeWire's tools (`pw-cli`, `pw-dump`, `pw-link`) against this daemon.
    package func tool(_ name: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildProcess.Outcome {
        try ChildProcess.run("/usr/bin/\(name)", arguments, environment: environment, within: .seconds(30), sourceLocation: sourceLocation)
    }

    /// The nodes there are now (`pw-dump`).
    package func nodes() throws -> [Node] {
        let outcome = try tool("pw-dump", [])
        guard outcome.succeeded, let objects = try JSONSerialization.jsonObject(with: outcome.stdoutData) as? [[String: Any]] else {
            throw ChildProcess.UnreadableOutput(description: "pw-dump: \(outcome.stderr)")
        }
        return objects.compactMap { object in
            guard (object["type"] as? String)?.hasSuffix(":Node") == true, let id = object["id"] as? Int,
                let info = object["info"] as? [String: Any], let props = info["props"] as? [String: Any]
            else { return nil }
            let serial = (props["object.serial"]).map { "\($0)" } ?? ""
            return Node(
                id: id, serial: serial, name: props["node.name"] as? String ?? "", mediaClass: props["media.class"] as? String ?? "",
                role: props["media.role"] as? String ?? "", state: info["state"] as? String ?? "")
        }
    }

    /// The node named `name`, once it exists (waited for up to 20 s; nil and an issue if not).
    package func waitForNode(named name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Node? {
        var found: Node?
        eventually("a PipeWire node named \(name)", checkingEvery: .milliseconds(20), sourceLocation: sourceLocation) {
            found = try? nodes().first { $0.name == name }
            return found != nil
        }
        return found
    }

    /// Links the output ports of the node named `output` to the input ports of `input`
    /// (`pw-link`), as a session manager would, once both have their ports (waited for up to
    /// 20 s). Returns pw-link's outcome without judging it: pw-link checks the link after
    /// making it, so a reader that took its frames and left at once makes it fail although
    /// the frames flowed. What the link carried is for the test to assert.
    @discardableResult
    package func link(output: String, input: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildProcess.Outcome {
        try eventually("ports of \(output) and \(input)", checkingEvery: .milliseconds(20), sourceLocation: sourceLocation) {
            try hasPort("-o", of: output) && hasPort("-i", of: input)
        }
        return try tool("pw-link", [output, input], sourceLocation: sourceLocation)
    }

    /// Whether `pw-link` lists a port of `node` (`-o` outputs, `-i` inputs).
    private func hasPort(_ direction: String, of node: String) throws -> Bool {
        try tool("pw-link", [direction]).stdout.split(separator: "\n").contains { $0.hasPrefix("\(node):") }
    }

    /// Starts `gst-launch-1.0` with `pipeline` (its words) against this daemon.
    package func gstreamer(_ pipeline: [String], stdout: ChildProcess.Sink = .collect) throws -> ChildProcess {
        try ChildProcess("/usr/bin/gst-launch-1.0", ["-q"] + pipeline, environment: environment, stdout: stdout, stderr: .collect)
    }

    /// A camera as a desktop app shares one: GStreamer's test pattern through `pipewiresink
    /// mode=provide`, a node named `name` with `media.class=Video/Source` and
    /// `media.role=Camera`. `caps` is the raw video it offers (e.g. "video/x-raw,format=YUY2,
    /// width=320,height=240,framerate=30/1"); `pattern` a videotestsrc pattern.
    package func startTestCamera(name: String, caps: String, pattern: String = "smpte") throws -> ChildProcess {
        try gstreamer([
            "videotestsrc", "is-live=true", "pattern=\(pattern)", "!", caps, "!", "pipewiresink", "mode=provide",
            "stream-properties=props,media.role=Camera,media.class=Video/Source,node.name=\(name),node.description=\(name)",
        ])
    }

    /// A camera node of SPA's own test source (`videotestsrc`) through the adapter, as the
    /// daemon makes a device's node: its properties (PropInfo) are a live-mode switch and a
    /// pattern menu (SMPTE snow, Snow).
    package static func spaTestCamera(name: String) -> String {
        "{ factory = adapter args = { factory.name = videotestsrc node.name = \(name) node.description = \(name) "
            + "media.class = Video/Source media.role = Camera } }"
    }

    /// A camera node of the SPA v4l2 plug-in on the V4L2 device at `path`, as a desktop's
    /// session manager makes one for each camera (its properties are the driver's controls).
    /// The plug-in's node itself, not through the adapter: PipeWire 0.3.65's video adapter
    /// crashes the daemon (SIGSEGV in libspa-videoconvert) on a v4l2 node.
    package static func v4l2Camera(name: String, path: String) -> String {
        "{ factory = spa-node-factory args = { factory.name = api.v4l2.source api.v4l2.path = \(path) node.name = \(name) "
            + "node.description = \(name) media.class = Video/Source media.role = Camera device.api = v4l2 "
            + "node.driver = true priority.driver = 21000 } }"
    }

    /// A camera node of the SPA libcamera plug-in (pipewire-libcamera) on the libcamera
    /// camera `id` (e.g. "platform/vimc.0 Sensor B"), the plug-in's own node as `v4l2Camera`'s.
    package static func libcameraCamera(name: String, id: String) -> String {
        "{ factory = spa-node-factory args = { factory.name = api.libcamera.source api.libcamera.path = \"\(id)\" node.name = \(name) "
            + "node.description = \(name) media.class = Video/Source media.role = Camera node.driver = true priority.driver = 21000 } }"
    }

    /// The daemon's configuration (see the type's comment) with `objects` added; for a
    /// daemon a test starts some other way (the vivid VM, where Foundation's Process cannot
    /// wait for children).
    package static func configuration(objects: [String]) -> String {
        // The objects list closes the configuration: insert before its "]".
        String(configuration.dropLast(2)) + objects.map { "    \($0)\n" }.joined() + "]\n"
    }

    static let configuration = """
        context.properties = {
            core.daemon = true
            core.name = pipewire-0
            support.dbus = false
            mem.allow-mlock = false
        }
        context.spa-libs = {
            support.* = support/libspa-support
            videotestsrc = videotestsrc/libspa-videotestsrc
            api.v4l2.* = v4l2/libspa-v4l2
            api.libcamera.* = libcamera/libspa-libcamera
        }
        context.modules = [
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-spa-node-factory }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-access }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-link-factory }
        ]
        context.objects = [
            { factory = metadata args = { metadata.name = default } }
            { factory = spa-node-factory
              args = { factory.name = support.node.driver node.name = Dummy-Driver node.group = pipewire.dummy priority.driver = 20000 } }
            { factory = spa-node-factory
              args = { factory.name = support.node.driver node.name = Freewheel-Driver priority.driver = 19000 node.group = pipewire.freewheel node.freewheel = true } }
        ]

        """
}
