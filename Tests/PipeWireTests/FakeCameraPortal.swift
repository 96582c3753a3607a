import Foundation
import Testing
import TestSupport

/// A private D-Bus session bus (`dbus-daemon --session`) with a Camera portal of the test's
/// own on it: a Python program (dbus-python) that owns org.freedesktop.portal.Desktop as
/// xdg-desktop-portal does, answers IsCameraPresent (`cameraPresent`), AccessCamera with a Request whose
/// Response carries `response` (0 granted, 1 cancelled by the user, 2 other), and
/// OpenPipeWireRemote with a fresh connection to a PipeWire daemon's socket, as the real
/// portal hands a sandboxed app its restricted connection.
///
/// No real portal runs on the test hosts; this one follows the portal's D-Bus API
/// (org.freedesktop.portal.Camera and org.freedesktop.portal.Request). It prints each call it
/// answers, one line each, which `calls` returns once the portal is stopped.
final class FakeCameraPortal: @unchecked Sendable {
    /// The private bus's D-Bus address, for `PipeWireDeviceProvider(portalBus:)`.
    let address: String
    private let bus: ChildProcess
    private let portal: ChildProcess
    private let directory: URL

    /// Whether dbus-daemon and Python's dbus and GLib bindings are installed.
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbus")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi")
    }

    /// Starts the bus and the portal, returning once the portal owns its name.
    init(response: Int, pipewireSocket: String, cameraPresent: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("oc-portal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("portal.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        bus = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1", "--address=unix:path=\(directory.path)/bus"],
            stdout: .stream, stderr: .discard)
        // dbus-daemon prints its address once it listens.
        address = Self.firstLine(of: bus.output)
        portal = try ChildProcess(
            "/usr/bin/python3", ["-u", script.path, String(response), pipewireSocket, cameraPresent ? "1" : "0"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": address], stdout: .stream, stderr: .collect)
        // The portal prints "ready" once it owns org.freedesktop.portal.Desktop.
        let ready = Self.firstLine(of: portal.output)
        guard !address.isEmpty, ready == "ready" else {
            stop()
            throw Failed(description: "the fake Camera portal did not start (bus '\(address)', portal '\(ready)')")
        }
    }

    deinit { stop() }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Stops the portal and the bus; returns the calls the portal answered, in order.
    @discardableResult
    func stop() -> [String] {
        if portal.isRunning { portal.kill() }
        let calls = String(decoding: readToEnd(portal.output), as: UTF8.self).split(separator: "\n").map(String.init)
        if bus.isRunning { bus.kill() }
        try? FileManager.default.removeItem(at: directory)
        return calls
    }

    /// The first line `handle` gives (empty when it ends first), read byte by byte so
    /// nothing after it is taken from the pipe.
    private static func firstLine(of handle: FileHandle) -> String {
        var line = [UInt8]()
        var byte: UInt8 = 0
        while read(handle.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    /// The portal: argv[1] the Response code AccessCamera's request gets, argv[2] the
    /// PipeWire socket OpenPipeWireRemote connects to, argv[3] IsCameraPresent (1 or 0).
    private static let script = #"""
        import socket
        import sys

        import dbus
        import dbus.mainloop.glib
        import dbus.service
        from gi.repository import GLib

        CAMERA = "org.freedesktop.portal.Camera"
        REQUEST = "org.freedesktop.portal.Request"
        response, pipewire_socket, present = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()


        class Request(dbus.service.Object):
            @dbus.service.signal(REQUEST, signature="ua{sv}")
            def Response(self, code, results):
                pass


        class Portal(dbus.service.Object):
            @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                print("Get " + name)
                if interface == CAMERA and name == "IsCameraPresent":
                    return dbus.Boolean(present, variant_level=1)
                if interface == CAMERA and name == "version":
                    return dbus.UInt32(1, variant_level=1)
                raise dbus.exceptions.DBusException(name, name="org.freedesktop.DBus.Error.UnknownProperty")

            @dbus.service.method(CAMERA, in_signature="a{sv}", out_signature="o", sender_keyword="sender")
            def AccessCamera(self, options, sender):
                print("AccessCamera " + str(options["handle_token"]))
                path = "/org/freedesktop/portal/desktop/request/%s/%s" % (sender[1:].replace(".", "_"), options["handle_token"])
                request = Request(bus, path)

                # After the reply, as the real portal answers once the user has chosen.
                def answer():
                    request.Response(dbus.UInt32(response), dbus.Dictionary({}, signature="sv"))
                    request.remove_from_connection()
                    return False

                GLib.idle_add(answer)
                return dbus.ObjectPath(path)

            @dbus.service.method(CAMERA, in_signature="a{sv}", out_signature="h")
            def OpenPipeWireRemote(self, options):
                print("OpenPipeWireRemote")
                connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                connection.connect(pipewire_socket)
                fd = dbus.types.UnixFd(connection)
                connection.close()
                return fd


        Portal(bus, "/org/freedesktop/portal/desktop")
        name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus, do_not_queue=True)
        print("ready")
        GLib.MainLoop().run()
        """#
}
