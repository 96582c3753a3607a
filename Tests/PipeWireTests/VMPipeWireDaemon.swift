import Foundation
import TestSupport

/// A PipeWire daemon in the vivid VM, started and stopped through the shell (`popen`): the
/// VM's userland cannot run Foundation's Process (waiting for a child never returns), so
/// `PipeWireDaemon` cannot start one there. Same configuration, `objects` added.
final class VMPipeWireDaemon {
    let directory: String
    var socket: String { "\(directory)/pipewire-0" }

    /// Writes the configuration and starts `pipewire` in the background (PIPEWIRE_DEBUG=3
    /// into `daemon.log`, which `log` reads).
    init(name: String, objects: [String]) throws {
        directory = "/tmp/oc-pipewire-\(name)"
        _ = Self.shell("rm -rf \(directory) && mkdir -p \(directory)")
        try PipeWireDaemon.configuration(objects: objects).write(toFile: "\(directory)/daemon.conf", atomically: true, encoding: .utf8)
        _ = Self.shell(
            "PIPEWIRE_DEBUG=3 XDG_RUNTIME_DIR=\(directory) PIPEWIRE_RUNTIME_DIR=\(directory) pipewire -c \(directory)/daemon.conf "
                + ">\(directory)/daemon.log 2>&1 & echo $! >\(directory)/daemon.pid")
    }

    /// What the daemon logged.
    var log: String { Self.shell("cat \(directory)/daemon.log") }

    func stop() { _ = Self.shell("kill $(cat \(directory)/daemon.pid)") }

    /// Runs a shell command line and returns what it printed (stdout and stderr).
    static func shell(_ command: String) -> String { ShellCommand.run(command).output }
}
