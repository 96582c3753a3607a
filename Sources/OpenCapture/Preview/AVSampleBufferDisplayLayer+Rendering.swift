import Dispatch
import Foundation

/// When a display layer shows which buffer, and how it asks for more.
extension AVSampleBufferDisplayLayer {
    /// How often the layer looks at its timebase while a buffer waits for its time: the
    /// timebase may be moved or re-rated at any moment by its owner.
    static let pollInterval = DispatchTimeInterval.milliseconds(4)

    /// A timebase on the host clock, stopped at zero.
    static func hostTimebase() -> CMTimebase {
        var made: CMTimebase?
        CMTimebaseCreateWithSourceClock(allocator: nil, sourceClock: CMClockGetHostTimeClock(), timebaseOut: &made)
        return made!
    }

    /// On the render queue: shows the newest buffer whose time has come (or that asks to be
    /// shown at once), drops the older ones, and looks again while buffers wait.
    func showDueBuffers() {
        let (due, waiting, flushes, failure) = state.withLock { s -> (CMSampleBuffer?, Bool, Int, (any Error)?) in
            let now = (s.controlTimebase ?? s.ownTimebase).map(CMTimebaseGetTime) ?? .invalid
            var due: CMSampleBuffer?
            while let first = s.queued.first {
                let immediately = Self.flag(first, kCMSampleAttachmentKey_DisplayImmediately)
                guard immediately || (now.isNumeric && first.presentationTimeStamp <= now) else { break }
                s.queued.removeFirst()
                if !Self.flag(first, kCMSampleAttachmentKey_DoNotDisplay) { due = first }
            }
            var failure: (any Error)?
            if let buffer = due, buffer.imageBuffer == nil {
                failure = AVError(.decodeFailed, "Cannot Decode: the sample buffer holds no pixel buffer")
                s.status = .failed
                s.error = failure
                s.queued.removeAll()
                due = nil
            }
            return (due, !s.queued.isEmpty, s.flushes, failure)
        }
        if let failure {
            NotificationCenter.default.post(
                name: Self.failedToDecodeNotification, object: self, userInfo: [AVSampleBufferDisplayLayerFailedToDecodeNotificationErrorKey: failure])
        }
        if let due, let pixels = due.imageBuffer { render(pixels, flushes: flushes) }
        waitForNextBuffer(waiting)
        askForMore()
    }

    /// Draws `pixels` into `contents` unless a flush came since it was taken.
    private func render(_ pixels: CVPixelBuffer, flushes: Int) {
        let size = bounds.size
        guard let picture = renderer.render(pixels, size: size, gravity: videoGravity) else { return }
        let handler = state.withLock { s -> (DispatchQueue, @Sendable (CVPixelBuffer) -> Void)?? in
            guard s.flushes == flushes else { return .none }
            return .some(s.displayQueue.flatMap { queue in s.displayHandler.map { (queue, $0) } })
        }
        guard case .some(let display) = handler else { return }
        renderedCount.add(1, ordering: .relaxed)
        contents = picture
        if let (queue, block) = display { queue.async { block(picture) } }
    }

    /// Keeps a polling timer running on the render queue while buffers wait.
    private func waitForNextBuffer(_ waiting: Bool) {
        if !waiting {
            timer?.cancel()
            timer = nil
            return
        }
        guard timer == nil else { return }
        let made = DispatchSource.makeTimerSource(queue: renderQueue)
        made.schedule(deadline: .now() + Self.pollInterval, repeating: Self.pollInterval)
        made.setEventHandler { [weak self] in self?.showDueBuffers() }
        made.activate()
        timer = made
    }

    /// Runs the request block on its queue when the layer is ready and the block is not
    /// already running.
    func askForMore() {
        let request = state.withLock { s -> (DispatchQueue, @Sendable () -> Void)? in
            guard let requester = s.requester, !s.requestInFlight, s.queued.count < Self.maximumQueuedBuffers else { return nil }
            s.requestInFlight = true
            return (requester.queue, requester.block)
        }
        guard let (queue, block) = request else { return }
        queue.async { [weak self] in
            block()
            self?.state.withLock { $0.requestInFlight = false }
            // The block may have left the layer ready (it enqueued nothing): ask once more
            // only after something is shown or flushed, not in a loop.
        }
    }

    func flush(removingImage: Bool) {
        state.withLock { s in
            s.queued.removeAll()
            s.flushes += 1
            s.ownTimebaseStarted = false
            if s.status == .failed {
                s.status = .unknown
                s.error = nil
            }
        }
        renderQueue.async { [self] in
            if removingImage { contents = nil }
            waitForNextBuffer(false)
            askForMore()
        }
    }

    /// Whether a sample attachment of the buffer's first sample is true.
    static func flag(_ buffer: CMSampleBuffer, _ key: CFString) -> Bool {
        guard let attachments = CMSampleBufferGetSampleAttachmentsArray(buffer, createIfNecessary: false) as? [NSDictionary],
            let value = attachments.first?[key]
        else { return false }
        return (value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false
    }
}
