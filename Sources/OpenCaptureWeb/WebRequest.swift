import Foundation

/// One HTTP request as the server's routes see it: read in full (bodies are bounded) before
/// a route runs.
struct WebRequest: Sendable {
    let method: String
    /// The path without the query, e.g. `/status`.
    let path: String
    /// Query arguments, e.g. `token` from `/stream.mjpg?token=T`.
    let query: [String: String]
    /// Header values by lower-cased name (the last one of a name given twice).
    let headers: [String: String]
    /// Lower-cased names of headers the request gives more than once.
    var repeatedHeaders: Set<String> = []
    let body: Data
    /// The body went over the server's limit (what was kept is cut short).
    let bodyTooLarge: Bool
}

/// What a route answers: a status, headers and a body, either whole or produced as the
/// client reads it (the MJPEG stream, server-sent events).
struct WebResponse: Sendable {
    enum Body: Sendable {
        case data(Data)
        case stream(WebStream)
    }

    let status: Int
    var headers: [(String, String)]
    let body: Body

    static func json(_ object: [String: Any], status: Int = 200) -> WebResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return WebResponse(status: status, headers: [("Content-Type", "application/json")], body: .data(data + Data("\n".utf8)))
    }

    /// A JSON error: `{"error": reason}` with a 4xx status.
    static func failure(_ status: Int, _ reason: String) -> WebResponse { json(["error": reason], status: status) }

    /// A failure after which the connection closes: a refused client (no token, a foreign
    /// Host or Origin, a malformed request) keeps no slot open for another request.
    static func refusal(_ status: Int, _ reason: String) -> WebResponse {
        var response = failure(status, reason)
        response.headers.append(("Connection", "close"))
        return response
    }

    /// Sent with every response: no other site may frame the page (a click there would
    /// zoom or record), embed the pictures or streams, or read a body as another type.
    static let everyResponseHeaders: [(String, String)] = [
        ("X-Frame-Options", "DENY"), ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Content-Type-Options", "nosniff"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    static func bytes(_ data: Data, type: String) -> WebResponse {
        WebResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "no-store")], body: .data(data))
    }
}

/// A response body produced as the client takes it. `next` runs on the connection's own
/// thread and may block until there is something to send; nil ends the body.
protocol WebStream: AnyObject, Sendable {
    func next() -> Data?
    /// The client went away or the server stops: wake `next` and make it return nil.
    func cancel()
}
