import OpenCaptureWeb

extension ServeCommand {
    /// `--allow-host`: comma-separated names the server also answers to in `Host`.
    static func allowedHosts(_ option: String, _ text: String) throws -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard names.allSatisfy(CaptureWebServer.Configuration.isHostName) else {
            throw UsageError.value(
                option, text, allowed: "host names (letters, digits, '-' and '.') or IP addresses ([::1] for IPv6), separated by commas")
        }
        return names
    }
}
