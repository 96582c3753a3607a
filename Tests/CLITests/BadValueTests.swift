import Foundation
import Testing

/// Values the tool once accepted (exit 0) or crashed on (SIGILL): every one is refused now
/// with exit status 2 and one line that names the option and what it takes, and nothing
/// is written.
@Suite("capture refuses bad values, naming the option and the allowed values")
struct BadValueTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let message: String
        init(_ arguments: [String], _ message: String) {
            self.arguments = arguments
            self.message = message
        }
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(["frames", "--fps", "3e9", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not '3e9'"),
        Case(["photo", "--fps", "1e10", "-o", "/tmp/never-written.jpg"], "--fps must be a number in 0.1...1000, not '1e10'"),
        Case(["record", "--fps", "1e308", "-o", "/tmp/never-written.mp4"], "--fps must be a number in 0.1...1000, not '1e308'"),
        Case(["preview", "--fps", "inf"], "--fps must be a number in 0.1...1000, not 'inf'"),
        Case(["frames", "--fps", "nan", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not 'nan'"),
        Case(["frames", "--fps", "0x10", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not '0x10'"),
        Case(["frames", "--fps", "+30", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not '+30'"),
        Case(["frames", "--fps", " 30", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not ' 30'"),
        Case(["frames", "--fps", "", "-o", "/tmp/never-written.y4m"], "--fps must be a number in 0.1...1000, not ''"),
        Case(["frames", "--fps", "30", "--fps", "60", "-o", "/tmp/never-written.y4m"], "--fps is given twice; give it once"),
        Case(["frames", "--size", "1280xabcx720", "-o", "/tmp/never-written.y4m"], "--size must be WxH with sides in 1...8192, as in 1280x720, not '1280xabcx720'"),
        Case(["frames", "--size", "1280x720 ", "-o", "/tmp/never-written.y4m"], "--size must be WxH with sides in 1...8192, as in 1280x720, not '1280x720 '"),
        Case(["frames", "--count", "0x10", "-o", "/tmp/never-written.y4m"], "--count must be a whole number in 1...1000000, not '0x10'"),
        Case(["frames", "--count", "1e3", "-o", "/tmp/never-written.y4m"], "--count must be a whole number in 1...1000000, not '1e3'"),
        Case(["frames", "-o", "dir/file/"], "--output 'dir/file/' names a folder (it ends in '/'); give a file name"),
        Case(["frames", "-o", ""], "--output must be a file name, not ''"),
        Case(["frames", "--device", "", "-o", "/tmp/never-written.y4m"], "--device must be a camera unique ID (see 'capture devices'), not ''"),
        Case(["frames", "--seed", "+1", "-o", "/tmp/never-written.y4m"], "--seed must be a whole number in 0...18446744073709551615, not '+1'"),
        Case(["frames", "--seed", "-1", "-o", "/tmp/never-written.y4m"], "--seed must be a whole number in 0...18446744073709551615, not '-1'"),
        Case(["frames", "--cct", "6500.0.0", "-o", "/tmp/never-written.y4m"], "--cct must be a number in 1000...100000 K, not '6500.0.0'"),
        Case(["frames", "--tint", " 5", "-o", "/tmp/never-written.y4m"], "--tint must be a number in -150...150, not ' 5'"),
        Case(["frames", "--wb", "1, 1, 1", "-o", "/tmp/never-written.y4m"], "--wb must be auto, continuous, K[,TINT] or R,G,B gains, not '1, 1, 1'"),
        Case(["frames", "--lux", "1e3", "-o", "/tmp/never-written.y4m"], "--lux must be a number in 0...200000 lux, not '1e3'"),
        Case(["frames", "--zoom", "inf", "-o", "/tmp/never-written.y4m"], "--zoom must be a positive number up to 1000, not 'inf'"),
        Case(["frames", "--iso", "nan", "-o", "/tmp/never-written.y4m"], "--iso must be a positive number up to 1000000, not 'nan'"),
        Case(["frames", "--rotation", "+90", "-o", "/tmp/never-written.y4m"], "--rotation must be 0, 90, 180 or 270, not '+90'"),
        Case(["frames", "--shutter", "1/0", "-o", "/tmp/never-written.y4m"], "--shutter must be seconds (0.004), a fraction (1/250) or milliseconds (4ms), at most 3600 s, not '1/0'"),
        Case(["frames", "--shutter", "1e-3", "-o", "/tmp/never-written.y4m"], "--shutter must be seconds (0.004), a fraction (1/250) or milliseconds (4ms), at most 3600 s, not '1e-3'"),
        Case(["frames", "--bias", "-0x1", "-o", "/tmp/never-written.y4m"], "--bias must be a number in -8...8 EV, not '-0x1'"),
        Case(["frames", "--torch", "1e-1", "-o", "/tmp/never-written.y4m"], "--torch must be off, on, auto or a level in (0, 1], not '1e-1'"),
        Case(["frames", "--focus", ".5e0", "-o", "/tmp/never-written.y4m"], "--focus must be auto, continuous, locked or a lens position in 0...1, not '.5e0'"),
        Case(["frames", "--scene", "flat:1e-1", "-o", "/tmp/never-written.y4m"], "--scene flat:<reflectance> needs a reflectance in 0...1, not '1e-1'"),
        Case(["frames", "--preset", "high ", "-o", "/tmp/never-written.y4m"], "--preset must be photo, high, medium, low, 352x288, 640x480, 1280x720, 1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority, not 'high '"),
        Case(["frames", "--mirror", "--mirror", "-o", "/tmp/never-written.y4m"], "--mirror is given twice; give it once"),
        Case(["frames", "--mirror=yes", "-o", "/tmp/never-written.y4m"], "--mirror takes no value"),
        Case(["frames", "stray", "-o", "/tmp/never-written.y4m"], "unexpected argument 'stray' for frames (see 'capture frames --help')"),
        Case(["record", "--duration", "inf", "-o", "/tmp/never-written.mp4"], "--duration must be a positive number up to 86400 s, not 'inf'"),
        Case(["record", "--fragment", "0.0001", "-o", "/tmp/never-written.mp4"], "--fragment must be a number in 0.1...60 s, not '0.0001'"),
        Case(["record", "--fragment", "1e9", "-o", "/tmp/never-written.mp4"], "--fragment must be a number in 0.1...60 s, not '1e9'"),
        Case(["preview", "--columns", "80.0"], "--columns must be a whole number in 8...2000, not '80.0'"),
        Case(["bench", "--frames", "1e3"], "--frames must be a whole number in 30...100000, not '1e3'"),
        Case(["bench-v4l2", "--size", "65536x65536"], "--size must be WxH with even sides in 16...4096, as in 1280x720, not '65536x65536'"),
        Case(["bench-v4l2", "--size", "30000x30000"], "--size must be WxH with even sides in 16...4096, as in 1280x720, not '30000x30000'"),
        Case(["bench-v4l2", "--size", "15x15"], "--size must be WxH with even sides in 16...4096, as in 1280x720, not '15x15'"),
        Case(["wb", "--xy", "0,0"], "--xy must be a chromaticity X,Y with x > 0, y > 0 and x + y < 1, not '0,0'"),
        Case(["wb", "--temperature", "5000,"], "--temperature must be 1 to 2 comma-separated numbers, not '5000,'"),
        Case(["wb", "--gains", "1,1,1,1"], "--gains must be 3 comma-separated numbers, not '1,1,1,1'"),
        Case(["formats", "sim:back-wide", "--device", "sim:back-wide"], "give the device once: 'sim:back-wide' or --device, not both"),
        Case(["devices", "--json", "--json"], "--json is given twice; give it once"),
        Case(["frames", "--metadata", "/tmp/never-written.y4m", "-o", "/tmp/never-written.y4m"], "--metadata and -o name the same file ('/tmp/never-written.y4m'); give each its own"),
        Case(["frames", "-o", "/tmp/never-written.y4m", "--metadata", "/tmp/./never-written.y4m"], "--metadata and -o name the same file ('/tmp/./never-written.y4m'); give each its own"),
        Case(["record", "-o", "-"], "record cannot write to standard output (-o -): the MP4 writer needs a file it creates; give -o FILE.mp4"),
        Case(["record", "-o", "/dev/null"], "record writes regular files only; '/dev/null' is a character device (the MP4 writer needs a file it creates)"),
    ]

    @Test("refused with exactly this line", arguments: cases)
    func refused(_ item: Case) throws {
        let output = try ToolRunner.run("capture", item.arguments)
        #expect(output.exited && output.status == 2)
        #expect(output.stderr == "capture: \(item.message)\n")
        #expect(output.stdout.isEmpty)
        for name in ["never-written.y4m", "never-written.jpg", "never-written.mp4"] {
            #expect(!FileManager.default.fileExists(atPath: "/tmp/" + name))
        }
    }
}
