"""A camera that speaks RTSP over TLS (rtsps), for the live camera tests (issue 45).

GStreamer's RTSP server (Debian: gir1.2-gst-rtsp-server-1.0 and the GStreamer plugins, TLS by
glib-networking) with a certificate given as files, a login checked by Basic authentication, and one
path serving an H.264 Annex-B file in a loop at the rate its SPS says, as a camera does. Clients may
take RTP over UDP or interleaved in the RTSP connection (ffmpeg's rtsps always does the latter).

Run by api/test-support/rtsps-camera.ts with /usr/bin/python3 (Debian's python3-gi); the login comes
in RTSPS_CAMERA_USER and RTSPS_CAMERA_PASSWORD (not on the command line, which any process may read).
Prints «ready PORT» once it listens, and stops on SIGTERM or when its standard input closes.
`--check` prints what is missing here (nothing: exit 0) and serves nothing.
"""

import argparse
import os
import signal
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstRtsp", "1.0")
    gi.require_version("GstRtspServer", "1.0")
    from gi.repository import Gio, GLib, Gst, GstRtsp, GstRtspServer
except (ImportError, ValueError) as missing_library:
    # --check reports it; serving cannot go on without it.
    if "--check" in sys.argv:
        print(f"нет GStreamer RTSP server для Python: python3-gi, gir1.2-gst-rtsp-server-1.0 ({missing_library})")
    sys.exit(1)

# The elements the served media and the server's transports are made of, and their Debian packages.
ELEMENTS = {
    "multifilesrc": "gstreamer1.0-plugins-good",
    "h264parse": "gstreamer1.0-plugins-bad",
    "rtph264pay": "gstreamer1.0-plugins-good",
    "rtpbin": "gstreamer1.0-plugins-good",
    "udpsrc": "gstreamer1.0-plugins-good",
    "multiudpsink": "gstreamer1.0-plugins-good",
    "appsrc": "gstreamer1.0-plugins-base",
    "appsink": "gstreamer1.0-plugins-base",
}


def missing_here() -> list:
    Gst.init(None)
    missing = [
        f"нет элемента GStreamer {name} ({package})"
        for name, package in ELEMENTS.items()
        if Gst.ElementFactory.find(name) is None
    ]
    if not Gio.TlsBackend.get_default().supports_tls():
        missing.append("GLib не умеет TLS (glib-networking)")
    return missing


def presentation_from_decoding(_pad, info):
    """h264parse stamps a bytestream's frames with decoding times only; with no B-frames they are
    presentation times too (without them ffmpeg got frames with nearly equal timestamps)."""
    frame = info.get_buffer()
    if frame.pts == Gst.CLOCK_TIME_NONE:
        frame.pts = frame.dts
    return Gst.PadProbeReturn.OK


def stamp_presentation(_factory, media) -> None:
    parse = media.get_element().get_by_name("parse")
    parse.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, presentation_from_decoding)


def main() -> None:
    args = argparse.ArgumentParser()
    args.add_argument("--check", action="store_true")
    args.add_argument("--port", type=int, default=0)
    args.add_argument("--cert")
    args.add_argument("--key")
    args.add_argument("--path", default="cam1")
    args.add_argument("--h264", help="H.264 Annex-B file, served in a loop")
    options = args.parse_args()
    missing = missing_here()
    if options.check or missing:
        print("\n".join(missing))
        sys.exit(1 if missing else 0)
    if not (options.cert and options.key and options.h264):
        sys.exit("--cert, --key and --h264 are needed")

    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(str(options.port))

    # TLS on every connection: the auth object holding a certificate makes the server rtsps.
    auth = GstRtspServer.RTSPAuth()
    auth.set_tls_certificate(Gio.TlsCertificate.new_from_files(options.cert, options.key))
    token = GstRtspServer.RTSPToken()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "camera-user")
    user, password = os.environ["RTSPS_CAMERA_USER"], os.environ["RTSPS_CAMERA_PASSWORD"]
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
    server.set_auth(auth)

    factory = GstRtspServer.RTSPMediaFactory()
    # h264parse gives the bytestream's frames decoding times from the SPS timing (its frame rate), the
    # server's sinks pace them by the clock, and a probe copies them as presentation times (no B-frames).
    location = options.h264.replace("\\", "\\\\").replace('"', '\\"')
    factory.set_launch(
        f'( multifilesrc location="{location}" loop=true '
        "caps=video/x-h264,stream-format=byte-stream ! h264parse name=parse ! "
        "rtph264pay name=pay0 pt=96 config-interval=1 )"
    )
    factory.set_protocols(GstRtsp.RTSPLowerTrans.TCP | GstRtsp.RTSPLowerTrans.UDP)
    factory.add_role_from_structure(
        Gst.Structure.new_from_string(
            "camera-user, media.factory.access=(boolean)true, media.factory.construct=(boolean)true"
        )
    )
    factory.connect("media-configure", stamp_presentation)
    server.get_mount_points().add_factory("/" + options.path.lstrip("/"), factory)

    loop = GLib.MainLoop()
    if server.attach(None) == 0:
        sys.exit("the RTSP server could not listen")
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT, loop.quit)
    # The test process gone (its end of the pipe closed): stop too, never left running.
    stdin = GLib.IOChannel.unix_new(sys.stdin.fileno())
    GLib.io_add_watch(stdin, GLib.PRIORITY_DEFAULT, GLib.IO_HUP | GLib.IO_IN, lambda *_: loop.quit())
    # One write: the reader takes the port at the line's end.
    sys.stdout.write(f"ready {server.get_bound_port()}\n")
    sys.stdout.flush()
    loop.run()


if __name__ == "__main__":
    main()
