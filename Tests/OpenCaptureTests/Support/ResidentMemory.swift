import Foundation

/// The process's resident set size, from `/proc/self/statm` (pages, times the page size).
enum ResidentMemory {
    /// Resident bytes now; 0 if `/proc` cannot be read.
    static var bytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Resident mebibytes now.
    static var megabytes: Double { Double(bytes) / 1_048_576 }
}
