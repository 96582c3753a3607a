import CaptureCore
import Foundation
import PipeWireCamera
import Testing
import TestSupport

/// PipeWire cameras reached through the Camera portal, as a sandboxed (Flatpak, Snap) app
/// reaches them: the provider asks the portal on a private session bus (FakeCameraPortal)
/// instead of opening the daemon's socket, and reads frames over the connection the portal
/// hands out; a denial leaves it without cameras, saying why.
@Suite(.serialized, .enabled(if: PipeWireDaemon.isInstalled && FakeCameraPortal.isInstalled))
struct PipeWirePortalTests {
    @Test func aGrantedPortalGivesTheDaemonsCamerasAndTheirFrames() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let producer = try daemon.startTestCamera(
            name: "oc-portal-camera", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1", pattern: "white")
        defer { producer.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-portal-camera"))
        let portal = try FakeCameraPortal(response: 0, pipewireSocket: daemon.socket)
        defer { portal.stop() }

        let provider = PipeWireDeviceProvider(portalBus: portal.address)
        let found = provider.discover { _ in }
        #expect(provider.connectionFailure == nil)
        let camera = try #require(found.compactMap { $0 as? PipeWireCamera }.first { $0.node.name == "oc-portal-camera" })
        #expect(camera.descriptor.uniqueID == "pipewire:oc-portal-camera")
        let sink = RecordingSink<UInt8>(extract: { buffer, _ in
            buffer.planeAddress(0).load(fromByteOffset: buffer.bytesPerRow(0) * buffer.height / 2 + buffer.width / 2, as: UInt8.self)
        })
        try camera.start(
            StreamConfiguration(
                formatIndex: 0, minFrameDuration: CMTime(value: 1, timescale: 30), maxFrameDuration: CMTime(value: 1, timescale: 30),
                pixelFormat: .yuv420BiPlanarVideoRange),
            sink: sink)
        let frames = try sink.waitForFrames(10)
        camera.stop()
        // videotestsrc's white: BT.601 video-range Y 235.
        #expect(frames.allSatisfy { abs(Int($0) - 235) <= 1 }, "luma \(frames)")
        #expect(sink.failures.isEmpty)

        // The portal was asked in its order: camera present, access, then the connection.
        let calls = portal.stop()
        #expect(calls.map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["Get", "AccessCamera", "OpenPipeWireRemote"], "\(calls)")
        #expect(calls.first == "Get IsCameraPresent")
    }

    @Test func aDeniedPortalLeavesNoCamerasAndSaysSo() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let producer = try daemon.startTestCamera(
            name: "oc-portal-camera", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        defer { producer.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-portal-camera"))
        // The user cancels the portal's dialog: Response 1.
        let portal = try FakeCameraPortal(response: 1, pipewireSocket: daemon.socket)
        defer { portal.stop() }

        let provider = PipeWireDeviceProvider(portalBus: portal.address)
        #expect(provider.discover { _ in }.isEmpty)
        let failure = try #require(provider.connectionFailure)
        #expect(failure.contains("portal denied access"), "\(failure)")
        // What authorizationStatus(for: .video) answers .denied for, with its remedy.
        #expect(provider.inaccessibleNodes(.video).count == 1 && provider.inaccessibleNodes(.video)[0].contains("Camera portal denied"))
        #expect(provider.inaccessibleNodes(.audio).isEmpty)
        let calls = portal.stop()
        #expect(calls.filter { $0.hasPrefix("AccessCamera") }.count == 1, "\(calls)")
        #expect(!calls.contains("OpenPipeWireRemote"), "\(calls)")
    }

    @Test func noCameraPresentIsNotAskedFor() throws {
        // The portal says the machine has no camera: access is not asked for (no dialog).
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let portal = try FakeCameraPortal(response: 0, pipewireSocket: daemon.socket, cameraPresent: false)
        defer { portal.stop() }
        let provider = PipeWireDeviceProvider(portalBus: portal.address)
        #expect(provider.discover { _ in }.isEmpty)
        let failure = try #require(provider.connectionFailure)
        #expect(failure.contains("no camera"), "\(failure)")
        #expect(portal.stop() == ["Get IsCameraPresent"])
    }

    @Test func aProgramAskedToUseThePortalFindsTheCameraThroughIt() throws {
        // OPENCAPTURE_PIPEWIRE_PORTAL=1 takes the sandbox's route: the session bus from
        // DBUS_SESSION_BUS_ADDRESS, as in a Flatpak. The daemon's socket is not where the
        // program would look (PIPEWIRE_REMOTE names nothing), so only the portal reaches it.
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let producer = try daemon.startTestCamera(
            name: "oc-portal-camera", caps: "video/x-raw,format=YUY2,width=320,height=240,framerate=30/1")
        defer { producer.kill() }
        _ = try #require(daemon.waitForNode(named: "oc-portal-camera"))
        let portal = try FakeCameraPortal(response: 0, pipewireSocket: daemon.socket)
        defer { portal.stop() }
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("capture")
        let away = ["PIPEWIRE_REMOTE": "/nonexistent/pipewire-0", "DBUS_SESSION_BUS_ADDRESS": portal.address]

        let direct = try ChildProcess.run(tool.path, ["devices"], environment: away, within: .seconds(60))
        #expect(direct.succeeded, "\(direct.stderr)")
        #expect(!direct.stdout.contains("pipewire:"), "\(direct.stdout)")
        let portaled = try ChildProcess.run(
            tool.path, ["devices"], environment: away.merging(["OPENCAPTURE_PIPEWIRE_PORTAL": "1"]) { $1 }, within: .seconds(60))
        #expect(portaled.succeeded, "\(portaled.stderr)")
        #expect(portaled.stdout.contains("pipewire:oc-portal-camera"), "\(portaled.stdout)")
        #expect(portal.stop().contains("OpenPipeWireRemote"))
    }

    @Test func noSessionBusIsReported() throws {
        // The bus is gone (stopped with its portal): the provider says so and has no cameras.
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let portal = try FakeCameraPortal(response: 0, pipewireSocket: daemon.socket)
        let address = portal.address
        portal.stop()
        let provider = PipeWireDeviceProvider(portalBus: address)
        #expect(provider.discover { _ in }.isEmpty)
        let failure = try #require(provider.connectionFailure)
        #expect(failure.contains("Camera portal") || failure.contains("session bus"), "\(failure)")
    }
}
