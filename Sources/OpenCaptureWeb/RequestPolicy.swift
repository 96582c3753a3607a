import Foundation

/// What a browser may do with the server, checked before any route runs. A web page the
/// user visits can make the browser send requests here, so:
/// - `Host` must be a name of this server (`names`), with or without a port: a DNS
///   rebinding page, whose own name now points here, is refused (403) and cannot read the
///   camera;
/// - a request another site's page makes the browser send is refused (403): one whose
///   `Sec-Fetch-Site` is `cross-site` or `same-site` (browsers send it on every request: an
///   `<img>`, `<iframe>` or fetch from another page says so, a typed URL says `none`, the
///   served page's own requests `same-origin`), and one whose `Origin` is not the server's
///   own, `http://` and the Host it was sent to (a page the server serves sends exactly
///   that). So another site can neither embed the stream (a GET that makes the session's
///   controls active) nor change anything;
/// - `Host`, `Origin`, `Sec-Fetch-Site`, `Content-Type` and `Authorization` decide what is
///   served, so a request giving one twice is ambiguous and refused (400);
/// - its body must be declared `Content-Type: application/json` (415 otherwise): a page on
///   another site can only send that after a CORS preflight, which this server never
///   grants, whereas forms and `text/plain` fetches go without one.
struct RequestPolicy: Sendable {
    /// Lower-cased names the server answers to, without port; IPv6 literals in brackets.
    let names: Set<String>

    /// The names for a server bound to `address` (IPv4), plus `allowed` ones: the address
    /// itself; `localhost`, 127.0.0.1 and [::1] for loopback; for all interfaces (0.0.0.0),
    /// those and the machine's host name and interface addresses (IP literals cannot be
    /// rebound, so naming them is safe).
    init(boundTo address: String, allowing allowed: [String]) {
        var names = Set(allowed.map { $0.lowercased() })
        names.insert(address)
        if address.hasPrefix("127.") || address == "0.0.0.0" { names.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        // 0.0.0.0 stays: it is the printed URL's name, and reaches this machine.
        if address == "0.0.0.0" { names.formUnion(Self.machineNames()) }
        self.names = names
    }

    /// Names must be `Host` names: letters, digits, '-' and '.', an IPv4 address, or an IPv6
    /// one in brackets.
    static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(text.dropFirst().dropLast()), &address) == 1
        }
        let allowed = { (scalar: Unicode.Scalar) in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
        }
        return text.unicodeScalars.allSatisfy(allowed) && !text.hasPrefix(".") && !text.hasPrefix("-") && !text.contains("..")
    }

    /// nil if `request` names this server in `Host`, else the refusal.
    func refusal(ofHost request: WebRequest) -> WebResponse? {
        guard let host = request.headers["host"] else { return .refusal(400, "the request has no Host header") }
        // The names themselves are not listed: a rebinding page could read them.
        guard let name = Self.name(inHost: host), names.contains(name) else {
            return .refusal(403, "Host '\(Self.printable(host))' is not a name of this server; see --allow-host (allowedHosts)")
        }
        return nil
    }

    /// Headers a request must not give twice (lower-cased).
    static let singleHeaders: Set<String> = ["host", "origin", "sec-fetch-site", "content-type", "authorization"]

    /// nil unless `request` gives one of `singleHeaders` more than once; then the refusal.
    func refusal(ofRepeatedHeaders request: WebRequest) -> WebResponse? {
        guard let name = Self.singleHeaders.intersection(request.repeatedHeaders).sorted().first else { return nil }
        return .refusal(400, "the request gives its \(name) header more than once")
    }

    /// nil unless another site's page sent `request` through the browser (`Sec-Fetch-Site`
    /// or `Origin` say so); then the refusal. (Its Host has passed `refusal(ofHost:)`.)
    func refusal(ofOtherSite request: WebRequest) -> WebResponse? {
        if let site = request.headers["sec-fetch-site"]?.lowercased(), site == "cross-site" || site == "same-site" {
            return .refusal(403, "a request from another site's page (Sec-Fetch-Site: \(site)) is not served: open this server's own page")
        }
        if let origin = request.headers["origin"], let host = request.headers["host"], origin.lowercased() != "http://" + host.lowercased() {
            return .refusal(403, "a request from another site (Origin '\(Self.printable(origin))') is not served: open this server's own page")
        }
        return nil
    }

    /// nil unless `request` is a POST without a JSON body; then the refusal.
    func refusal(ofStateChange request: WebRequest) -> WebResponse? {
        guard request.method == "POST" else { return nil }
        let type = request.headers["content-type"]?.split(separator: ";", maxSplits: 1).first
        guard type?.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else {
            return .refusal(415, "POST needs Content-Type: application/json and a JSON body ({} when there is nothing to say)")
        }
        return nil
    }

    /// The lower-cased name in a `Host` value: `name`, `name:port`, `[v6]` or `[v6]:port`
    /// (port: 1 to 5 digits up to 65535); nil when it is none of these.
    static func name(inHost host: String) -> String? {
        let text = host.lowercased()
        let name: Substring
        let rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[...close]
            rest = text[text.index(after: close)...]
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            rest = text[colon...]
        } else {
            name = Substring(text)
            rest = ""
        }
        if !rest.isEmpty {
            let digits = rest.dropFirst()
            guard rest.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits), port <= 65_535 else {
                return nil
            }
        }
        return isHostName(String(name)) ? String(name) : nil
    }

    /// A client's header value shown in a reason: printable ASCII, at most 100 characters.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(100).map { (0x20..<0x7F).contains($0.value) ? $0 : "?" }))
    }

    /// A NUL-terminated C string in a buffer.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The machine's host name and its interfaces' IPv4 addresses.
    private static func machineNames() -> Set<String> {
        var names: Set<String> = []
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0 {
            let name = text(buffer).lowercased()
            if isHostName(name) { names.insert(name) }
        }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return names }
        defer { freeifaddrs(list) }
        var item = list
        while let entry = item {
            if let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) {
                var inet = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                if inet_ntop(AF_INET, &inet, &text, socklen_t(text.count)) != nil { names.insert(Self.text(text)) }
            }
            item = entry.pointee.ifa_next
        }
        return names
    }
}
