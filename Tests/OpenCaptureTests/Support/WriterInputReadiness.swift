import Testing

@testable import OpenCapture

extension AVAssetWriterInput {
    /// Waits, yielding, until the input takes more data, as an app's loop over
    /// `isReadyForMoreMediaData` does; the test fails if it has not within `deadline`. A
    /// deadline in time, not in spins: on a busy machine yields return at once while the
    /// encoder thread waits for a core, and 200,000 spins passed in a quarter second.
    func waitUntilReady(within deadline: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        while !isReadyForMoreMediaData {
            try #require(clock.now < end, "input never became ready within \(deadline)", sourceLocation: sourceLocation)
            await Task.yield()
            if !isReadyForMoreMediaData { try await Task.sleep(for: .microseconds(200)) }
        }
    }
}
