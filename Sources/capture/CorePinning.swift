import CAffinity

/// Pins this process to some of the cores it may run on, for `bench --cores`.
enum CorePinning {
    /// Restricts every thread of the process (those running now, and through inheritance
    /// those started later) to the first `count` cores of its affinity mask. Throws a
    /// usage error if the process may run on fewer cores than that.
    static func pin(toFirst count: Int) throws {
        let result = oc_pin_process_to_first_cores(Int32(count))
        if result < 0 { throw UsageError("--cores: cannot set the CPU affinity (errno \(-result))") }
        if result < count { throw UsageError("--cores \(count): this process may run on only \(result) core(s)") }
    }
}
