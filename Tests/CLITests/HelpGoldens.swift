/// The full help of each command and of the tool, as `--help` prints it: a change to an
/// option, its check or its wording shows here.
enum HelpGoldens {
    static let usage = """
        capture: camera capture on Linux through OpenCapture's AVFoundation API

        Usage: capture <command> [options]
               capture --version

        Commands:
          devices         List cameras and microphones (simulated ones always; real V4L2 and ALSA ones when present)
          formats         List a camera's formats, frame rates, ISO and exposure ranges
          frames          Capture frames to a .y4m file (and per-frame metadata as JSON lines)
          photo           Take a full-resolution JPEG or HEIC photo with EXIF, or a raw DNG
          record          Record H.264 video (and sound) to a fragmented .mp4 file
          audio           Record a microphone to a .wav or .m4a file
          preview         Show a camera live in the terminal (24-bit colour)
          scan            Print the codes and faces a camera sees, each once, as JSON lines
          serve           Serve a camera live to a browser, with its controls (HTTP)
          stream          Publish the camera live to an RTSP, SRT or RTMP server
          virtual-camera  Publish the camera as a PipeWire camera that browsers and other apps open
          wb              Convert white balance between gains, xy chromaticity and temperature/tint
          bench           Measure throughput, latency and allocations (use a release build)
          bench-v4l2      Measure V4L2 format conversions and, with a V4L2 camera, the per-frame cost

        Run 'capture <command> --help' for a command's options.
        """

    static let devices = """
        Usage: capture devices [--json]

        Lists the cameras, then the microphones: unique ID (use it with --device), name,
        position and type. For microphones POSITION is unspecified and the JSON adds the
        sample rate and channel count they deliver.

        Options:
          --json               Print a JSON array instead of a table
          -h, --help           Show this help
        """

    static let audio = """
        Usage: capture audio [--device ID] [--duration S] [--overwrite] -o FILE.wav|FILE.m4a

        Records a microphone (by default ALSA's default device, alsa:default, where a sound
        card or sound server answers, else the simulated one; 'capture devices' lists them
        all) at its rate and channel count: 16-bit linear PCM in a
        WAV file, or AAC (64 kbit/s per channel) in an M4A file, chosen by the file's
        extension. Without --duration it records until Ctrl-C (SIGINT) or
        SIGTERM, which finish the file properly. With --overwrite the recording goes to a
        temporary name beside FILE and replaces it when it ends (a killed run's temporary is
        removed by the next run that writes in the folder). On a terminal the progress line
        shows the level of the last buffer and the peak of the last second, in dBFS.

        Options:
          --device ID          Microphone unique ID (see 'capture devices'; default: the default microphone)
          --duration S         Seconds to record, up to 86400 (stops by itself)
          --overwrite          Replace FILE if it exists (when the new one is complete; it keeps the old
                               one's permissions)
          -o, --output FILE    The .wav or .m4a file to write (required)
          -h, --help           Show this help
        """

    static let formats = """
        Usage: capture formats [DEVICE] [--device ID] [--json]

        Lists the formats of a camera (default: the default camera): size, pixel format,
        frame-rate ranges, ISO and exposure ranges, field of view, zoom, binning, HDR, and
        the session presets each format serves. DEVICE is a unique ID, as --device takes.

        Options:
          --device ID          Camera unique ID, instead of DEVICE
          --json               Print a JSON array instead of a table
          -h, --help           Show this help
        """

    static let frames = """
        Usage: capture frames [options] -o FILE.y4m

        Captures frames from a camera into a YUV4MPEG2 file that ffmpeg and mpv read
        ('-o -' writes it to standard output: capture frames -o - | ffplay -).
        FILE is written under a temporary name beside it and put in place when complete;
        a run killed outright (SIGKILL) leaves that .FILE.capture-PID-XXXXXX file, and the
        next run that writes in the folder removes it (never one whose writer still runs).
        Ctrl-C (SIGINT) or SIGTERM stops early and keeps the frames so far. If writing fails
        (a full disk), FILE keeps the complete frames, cut after the last one, and the
        metadata the same frames; with none, nothing is left.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --pixel-format PF    420v, 420f, y420, f420 or BGRA (default 420v; BGRA is stored as full-range
                               4:2:0 because Y4M holds Y'CbCr only), or raw: the simulated sensor's RGGB
                               mosaic as 16-bit grey (Y4M 'C mono16')
          --count N            Frames to capture (default 30; a file deck stops at the end of its file)
          --speed S            File decks (--device file:PATH): play at S times normal speed, 0.25 to 8
                               either way (negative plays backwards from the end; default 1)
          --metadata FILE      Also write one JSON object per frame (JSON lines); '-' is standard output
          --types LIST         With --metadata: the objects to detect and list under "objects",
                               comma-separated: codes (every code type), qr, microQR, aztec, dataMatrix,
                               pdf417, ean8, ean13, upce, code39, code39Mod43, code93, code128, itf14,
                               interleaved2of5, codabar, gs1DataBar, gs1DataBarExpanded, face, or none
                               (default: none; --metadata alone detects nothing and writes each frame's own
                               metadata with "objects" empty; face detection is slow)
          --overwrite          Replace FILE if it exists (when the new one is complete; it keeps the old
                               one's permissions)
          -o, --output FILE    The .y4m file to write (required); '-' is standard output
          -h, --help           Show this help
        """

    static let photo = """
        Usage: capture photo [options] -o FILE.jpg|.heic|.dng

        Starts the camera (preset photo unless --preset or --size says otherwise), lets
        exposure and white balance settle, and takes one photo at the format's full photo
        resolution (4032x3024 with the photo preset), written as JPEG with EXIF (exposure, ISO,
        f-number, focal length, white balance, flash, orientation, date, make and model).
        '-o -' writes the JPEG to standard output. FILE is written under a temporary name
        beside it and put in place when complete; if writing fails (a full disk), nothing
        is left. --codec hevc writes HEIC (.heic); --raw writes the sensor's Bayer mosaic
        as DNG (.dng; simulated cameras, and libcamera cameras whose pipeline streams
        raw); the file's extension must match. --quality quality
        fuses a burst of frames (less noise, slower); speed compresses fastest. --live
        takes a Live Photo: the still, and beside it FILE with the extension .mov, a
        QuickTime movie of about 1.5 s either side of the still sharing its content
        identifier (the camera runs 1.5 s first to fill its ring of frames).

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --flash MODE         off (default), on or auto (fires in dim light); cameras without a flash
                               accept only off
          --settle N           Video frames to run before the photo (default 15)
          --codec CODEC        jpeg (default, .jpg) or hevc (HEIC, .heic)
          --quality PRIORITY   speed, balanced (default) or quality (multi-frame fusion)
          --raw                Write the raw Bayer photo as DNG (.dng); simulated and raw libcamera cameras
          --live               A Live Photo: also write the movie as FILE's name with .mov; simulated
                               cameras only
          --overwrite          Replace FILE if it exists (when the new one is complete; it keeps the old
                               one's permissions)
          -o, --output FILE    The .jpg file to write (required); '-' is standard output
          -h, --help           Show this help
        """

    static let record = """
        Usage: capture record [options] -o FILE.mp4

        Records H.264 (or HEVC) video in MP4, fragmented so that the file stays playable up to
        its last fragment even if the process is killed. Without --duration it records until
        Ctrl-C (SIGINT) or SIGTERM, which finish the file properly. A new FILE grows in place
        as it records; with --overwrite the recording goes to a temporary name beside FILE and
        replaces it when it ends (a killed run's temporary is removed by the next run that
        writes in the folder). FILE must be a regular file: the MP4 writer creates its own
        file, so '-', devices and FIFOs are refused. If writing fails (a full disk), FILE is
        cut after its last complete fragment; with none, nothing is left. Sound from the
        default microphone (or --audio DEVICE) is recorded beside the picture as AAC, in sync
        on the host clock; --audio none records picture only.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --duration S         Seconds to record, up to 86400 (stops by itself)
          --fragment S         Seconds per MP4 fragment, 0.1...60 (default 1): what a killed process loses
                               at most, and what is held in memory until written
          --codec C            h264 (default) or hevc (also h265)
          --audio DEVICE       Microphone unique ID to record (see 'capture devices'), or none (default: the
                               default microphone)
          --overwrite          Replace FILE if it exists (when the new one is complete; it keeps the old
                               one's permissions)
          -o, --output FILE    The .mp4 file to write (required)
          -h, --help           Show this help
        """

    static let preview = """
        Usage: capture preview [options]

        Shows a camera live in the terminal (24-bit colour, two pixels per character cell)
        through an AVCaptureVideoPreviewLayer the size of the terminal. Ctrl-C stops.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --columns N          Width in characters (default: the terminal's, else 80)
          --rows N             Height in lines, the status line included (default: the terminal's, else 24)
          --gravity G          fit (whole picture, bars; default), fill (crop) or stretch
          --frames N           Stop after drawing N pictures
          -h, --help           Show this help
        """

    static let scan = """
        Usage: capture scan [options]

        Runs a camera with an AVCaptureMetadataOutput and prints each code it detects the
        first time it is seen: one JSON object a line with its type, string, corners
        (metadata-output coordinates: 0...1 over the unrotated sensor image) and the time of
        its frame. A face is printed once for each faceID, with its bounds, roll and yaw.
        Runs until --count objects or --frames frames, or Ctrl-C.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --types LIST         Types to look for, comma-separated: qr, microQR, aztec, dataMatrix, pdf417,
                               ean8, ean13, upce, code39, code39Mod43, code93, code128, itf14,
                               interleaved2of5, codabar, gs1DataBar, gs1DataBarExpanded, face (default all
                               the camera can detect)
          --count N            Stop after N different codes or faces
          --frames N           Stop after N frames
          -h, --help           Show this help
        """

    static let serve = """
        Usage: capture serve [options]

        Serves the camera over HTTP: a page with the live picture and a control panel (/),
        the MJPEG stream (/stream.mjpg), a snapshot (/snapshot.jpg), the camera's state as
        JSON (/status) and POST /control with a JSON object of settings. Loopback only
        unless --listen names another address, which needs --token or --token-file; every
        request must then carry it (Authorization: Bearer TOKEN, or ?token=TOKEN).
        The page is the session's Camera Control: the system zoom and exposure-bias
        sliders (iOS 18 capture controls) are on it, active while someone watches
        (POST /controls). With --save-dir the page's photo and record buttons save
        there (POST /photo, POST /record) and offer the files (/files/NAME).
        Prints the URL it serves on; Ctrl-C stops.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --listen ADDR:PORT   IPv4 address and port to listen on, port 0 picks a free one (default
                               127.0.0.1:8080)
          --token T            Secret every request must carry (printable, 8...256 characters); other users
                               can read it in /proc/PID/cmdline, so prefer --token-file
          --token-file FILE    Read the token from FILE (its first line), which keeps it out of the process
                               list (/proc/PID/cmdline)
          --allow-host NAMES   More names clients may reach the server by in the Host header,
                               comma-separated (its address, and localhost on loopback, always)
          --save-dir DIR       Directory the page's photo and record buttons save into (must exist and be
                               writable)
          --duration S         Stop after S seconds
          -h, --help           Show this help
        """

    static let stream = """
        Usage: capture stream URL [options]

        Publishes H.264 (or HEVC) video, tuned for low latency, with AAC audio from a
        microphone if --audio names one: to rtsp://HOST[:PORT]/PATH (RTSP ANNOUNCE/RECORD
        push, as MediaMTX and GStreamer servers take), srt://HOST:PORT (MPEG-TS; add
        ?mode=listener to wait for a caller) or rtmp://HOST[:PORT]/APP/STREAM (FLV, H.264
        only). WHIP is not available: this FFmpeg has no whip muxer. A server that cannot be
        reached at the start ends the command (status 2), as does one that never answers
        before --duration ends; one lost later is retried with back-off, each attempt
        reported on standard error. Messages show the URL with its password (and an SRT
        passphrase) as ***. --time-code shows each frame's capture time as a QR code in a
        simulated camera's picture, for measuring latency. Without --duration it streams
        until Ctrl-C (SIGINT) or SIGTERM.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --virtual-time       Simulated cameras and file decks: run as fast as the output takes frames,
                               timestamps still spaced by the frame duration
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --url URL            Where to publish (the same as the URL argument)
          --codec C            h264 (default) or hevc (also h265; not over RTMP)
          --bitrate BPS        Average video bits per second, 50000...100000000 (default 2000000)
          --audio ID           Microphone unique ID, 'default' for the default microphone, or 'none'
                               (default)
          --time-code          Show each frame's capture time as a QR code in the corner (simulated cameras)
          --duration S         Stop after S seconds
          -h, --help           Show this help
        """

    static let wb = """
        Usage: capture wb [--device ID] (--gains R,G,B | --xy X,Y | --temperature K[,TINT]) [--json]

        Converts a white balance between the device's gains, CIE 1931 xy chromaticity and
        correlated colour temperature with tint (Adobe DNG scale, -150...+150, positive is
        greener), using the device's colour calibration, and prints all three.

        Options:
          --device ID          Camera unique ID (default: the default camera)
          --gains R,G,B        Device gains, each in 1...maxWhiteBalanceGain
          --xy X,Y             Chromaticity of the white: x and y above 0, x + y below 1
          --temperature K[,T]  Temperature in kelvin (1000...100000) and optional tint (-150...150)
          --json               Print JSON
          -h, --help           Show this help
        """

    static let bench = """
        Usage: capture bench [--frames N] [--skip-peers] [--cores N] [--throughput-only] [--autofocus-only] [--photo-only] [--writer] [--deck FILE]

        Prints JSON with:
          throughput   frames per second through a session with a no-op delegate, on
                       virtual time, at 1280x720, 1920x1080 and 3840x2160 in 420v and BGRA
          one_core     the same throughput runs with the process pinned to one core (a
                       child 'capture bench --cores 1 --throughput-only')
          latency      median and p99 milliseconds from a frame's timestamp to its delegate
                       call, in real time (1920x1080 420v at 30 fps)
          allocations  heap allocations per frame in steady state (1920x1080 420v)
          movie        frames per second recording 1920x1080 H.264 MP4 on virtual time
          photo        median milliseconds from capturePhoto to a finished 4032x3024 JPEG
          peers        the same 1920x1080 NV12 job through gst-launch-1.0 (videotestsrc
                       pattern=snow) and ffmpeg (lavfi testsrc2), run side by side
          autofocus    frames delivered and dropped in 5 s of real time with continuous
                       autofocus searching all the time (a new search as each ends), at
                       1920x1080 30 fps, 1280x720 60 fps and 30 fps, and 1280x720 30 fps with
                       focus locked
          render_kernels  which build of the render kernels this CPU runs (x86-64-v4 is
                       AVX-512, x86-64-v3 AVX2)
        With --photo-only, the photo pipeline instead: 4032x3024 JPEG and HEIC encodes
        against cjpeg and heif-enc on the same pixels, capturePhoto-to-file per quality
        prioritization, zero shutter lag as photo timestamp minus call time (on and off),
        and the bytes the zero-shutter-lag history and the Live Photo ring hold.
        With --deck FILE, a file deck instead: FILE decoded to a no-op delegate on virtual
        time, forwards (in y420 and 420v) and backwards, alternating with
        'ffmpeg -benchmark -i FILE -f null -' (its decode loop time, rtime), two rounds.
        With --writer, the asset layer instead: AVAssetWriter's CPU per 1920x1080 H.264
        frame (8 Mbit/s, a keyframe every 60) against ffmpeg's libx264 with the same
        settings on a .y4m of the same frames, and AVAssetReader's decode throughput against
        'ffmpeg -f null' (default threads and -threads 1) on the file written; two rounds,
        the runs alternating (--frames, default 600, capped at 300 here: they are held in memory).
        Build it in release mode for meaningful numbers: swift build -c release.

        Options:
          --frames N           Frames per throughput run at 1080p (default 600; 4K runs a third)
          --skip-peers         Do not run GStreamer and FFmpeg
          --cores N            Pin the process to N of the cores it may run on first
          --throughput-only    Measure throughput only (no one-core child, latency, movie, photo, autofocus
                               or peers)
          --autofocus-only     Measure the autofocus section only
          --photo-only         Measure the photo pipeline only (encoders against cjpeg and heif-enc,
                               latency, zero shutter lag, memory)
          --writer             Measure AVAssetWriter and AVAssetReader against ffmpeg only
          --deck FILE          Measure a file deck playing FILE forwards and backwards against ffmpeg -f
                               null only
          -h, --help           Show this help
        """

    static let benchV4L2 = """
        Usage: capture bench-v4l2 [--device ID] [--frames N] [--size WxH]

        Prints JSON with:
          conversions  microseconds per frame for each device format into each of ours
                       (V4L2FrameConverter), next to the same libyuv call made directly
          stream       with a V4L2 camera (the first one, or --device): per-frame cost from
                       DQBUF to the delegate call, median and p99 microseconds, for the
                       device's NV12 (handed out without a copy) and YUYV (converted)
        Build it in release mode for meaningful numbers: swift build -c release.

        Options:
          --device ID          The V4L2 camera to stream from (default: the first one)
          --frames N           Conversions per measurement and frames per stream (default 200)
          --size WxH           Conversion size (default 1920x1080); even sides in 16...4096, as 4:2:0 and
                               YUYV need
          -h, --help           Show this help
        """

    /// Each command's name and its help.
    static let virtualCamera = """
        Usage: capture virtual-camera [options]

        Publishes the camera's frames as a PipeWire node (media.class Video/Source,
        media.role Camera) at the camera format's size, offering NV12, I420 and YUY2: a
        browser, OBS or a video-call app opens it like a webcam, through the desktop's
        session manager (WirePlumber) or the Camera portal; no kernel module is needed.
        Any camera works, a simulated one, a video file (--device file:PATH), V4L2 or
        libcamera. The capture never waits for the readers: a frame that finds them behind
        is dropped and counted. Readers may come and go; each is reported on standard
        error. Needs a running PipeWire daemon (PIPEWIRE_REMOTE, else pipewire-0 in
        XDG_RUNTIME_DIR) and the PipeWire plug-in beside the tool; without them the command
        says which is missing and exits 2. Without --duration it publishes until Ctrl-C
        (SIGINT) or SIGTERM, then removes the node.

        Options:
          --device ID          Camera unique ID (see 'capture devices'; default: the default camera), or
                               file:PATH to play a video file as a camera
          --preset NAME        Session preset: photo, high, medium, low, 352x288, 640x480, 1280x720,
                               1920x1080, 3840x2160, iframe960x540, iframe1280x720 or inputpriority
                               (default: high; photo for 'capture photo')
          --size WxH           Use the camera format of this size instead of a preset (see 'capture
                               formats')
          --fps N              Frame rate; it must lie in the format's frame-rate ranges, and with --size
                               the format of that size that supports it is chosen
          --seed N             Scene seed of a simulated camera, 0...18446744073709551615 (default 1)
          --cct K              Scene illuminant colour temperature of a simulated camera, 1000...100000 K
                               (default 6500)
          --tint T             Scene illuminant tint of a simulated camera, -150...150 (default 0)
          --scene S            Simulated scene: chart, flat:<reflectance 0...1>, lowlight, hdr, motion,
                               image:<file.png|file.jpg> (default chart)
          --lux E              Illuminance on the simulated scene, 0...200000 lux (a white's luminance is
                               E/pi cd/m2)
          --hdr MODE           Video HDR: on, off or auto (default auto: on when the scene needs it)
          --color-space CS     srgb or p3 (default: the session's choice, sRGB for video)
          --wb MODE            White balance: auto (settle, then lock), continuous (default), K[,TINT] (lock
                               to a temperature) or R,G,B (lock to device gains)
          --exposure-mode M    Exposure: locked, auto (settle, then lock), continuous (default) or custom
          --shutter T          Exposure time for custom exposure: 0.004, 1/250 or 4ms (within the format's
                               range)
          --iso N              ISO for custom exposure (within the format's range)
          --bias EV            Exposure target bias, -8...8 EV
          --focus F            auto (focus once, then lock), continuous, locked, or a lens position 0...1 (0
                               nearest) to lock at
          --zoom Z             Zoom factor, 1 ... the format's maximum
          --torch T            off, on, auto (lit in dim scenes) or a level in (0, 1]
          --rotation DEG       Rotate delivered frames clockwise by 0, 90, 180 or 270 degrees
          --mirror             Mirror delivered frames left to right
          --name NAME          The node's name (node.name), 1-64 letters, digits, '-', '_' or '.' (default
                               opencapture-camera)
          --description TEXT   The name apps show in their camera lists (default: the camera's name)
          --duration S         Stop after S seconds
          -h, --help           Show this help
        """

    static let commands: [(name: String, help: String)] = [
        ("devices", devices),
        ("formats", formats),
        ("frames", frames),
        ("photo", photo),
        ("record", record),
        ("audio", audio),
        ("preview", preview),
        ("scan", scan),
        ("serve", serve),
        ("stream", stream),
        ("virtual-camera", virtualCamera),
        ("wb", wb),
        ("bench", bench),
        ("bench-v4l2", benchV4L2),
    ]
}
