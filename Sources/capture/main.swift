import Foundation

// `capture`: the OpenCapture command-line tool. Every mistake in a command line ends with
// one line naming the problem and exit status 2; runtime failures with one line and status 1.

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("capture: \(message)\n".utf8))
    exit(status)
}

// A reader that goes away (`capture frames -o - | head -c 1000`) is a write error to
// report, not a signal that kills the tool silently.
signal(SIGPIPE, SIG_IGN)
// A parent may start the tool with signals blocked (Foundation's Process passes on the
// mask of the thread that spawns it); SIGINT and SIGTERM must still stop it.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

let words = Array(CommandLine.arguments.dropFirst())
guard let name = words.first else {
    FileHandle.standardError.write(Data((CommandList.usage + "\n").utf8))
    exit(2)
}
switch name {
case "--help", "-h", "help":
    if words.count > 1 {
        guard words.count == 2, let command = CommandList.named(words[1]) else {
            fail("help takes one command name (commands: \(CommandList.names))", status: 2)
        }
        print(command.help)
    } else {
        print(CommandList.usage)
    }
    exit(0)
case "--version":
    guard words.count == 1 else { fail("--version takes no arguments", status: 2) }
    print(ToolVersion.line)
    exit(0)
default:
    break
}
guard let command = CommandList.named(name) else {
    let what = name.hasPrefix("-") ? "unknown option" : "unknown command"
    fail("\(what) \(ErrorText.quoted(name)) (commands: \(CommandList.names); see 'capture --help')", status: 2)
}
let rest = Array(words.dropFirst())
// --help wins over whatever else is on the line, as in most tools.
if rest.contains("--help") || rest.contains("-h") {
    print(command.help)
    exit(0)
}
do {
    exit(try command.run(Arguments(rest, command: command)))
} catch let error as UsageError {
    fail(ErrorText.oneLine(error.description), status: 2)
} catch {
    fail(ErrorText.line(error), status: 1)
}
