"""The X windows titled argv[2], for the desktop end-to-end tests (windows.mjs).

`close` asks them to close as a window manager does when its close button is clicked (a WM_DELETE_WINDOW client
message; Xvfb runs no window manager); `viewable` prints how many are shown on the screen. WebDriver's "close
window" is no stand-in for the first: WebKitWebDriver then ends the app without the app's own exit.
"""
import ctypes, ctypes.util, sys
x = ctypes.cdll.LoadLibrary(ctypes.util.find_library('X11'))
x.XOpenDisplay.restype = ctypes.c_void_p
x.XOpenDisplay.argtypes = [ctypes.c_char_p]
x.XDefaultRootWindow.restype = ctypes.c_ulong
x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x.XInternAtom.restype = ctypes.c_ulong
x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)), ctypes.POINTER(ctypes.c_uint)]
x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x.XFlush.argtypes = [ctypes.c_void_p]

class ClientMessage(ctypes.Structure):
    _fields_ = [('type', ctypes.c_int), ('serial', ctypes.c_ulong), ('send_event', ctypes.c_int),
                ('display', ctypes.c_void_p), ('window', ctypes.c_ulong), ('message_type', ctypes.c_ulong),
                ('format', ctypes.c_int), ('l', ctypes.c_long * 5)]
class Event(ctypes.Union):
    _fields_ = [('xclient', ClientMessage), ('pad', ctypes.c_long * 24)]
class Attributes(ctypes.Structure):
    _fields_ = [('x', ctypes.c_int), ('y', ctypes.c_int), ('width', ctypes.c_int), ('height', ctypes.c_int),
                ('border_width', ctypes.c_int), ('depth', ctypes.c_int), ('visual', ctypes.c_void_p),
                ('root', ctypes.c_ulong), ('class_', ctypes.c_int), ('bit_gravity', ctypes.c_int),
                ('win_gravity', ctypes.c_int), ('backing_store', ctypes.c_int), ('backing_planes', ctypes.c_ulong),
                ('backing_pixel', ctypes.c_ulong), ('save_under', ctypes.c_int), ('colormap', ctypes.c_ulong),
                ('map_installed', ctypes.c_int), ('map_state', ctypes.c_int), ('all_event_masks', ctypes.c_long),
                ('your_event_mask', ctypes.c_long), ('do_not_propagate_mask', ctypes.c_long),
                ('override_redirect', ctypes.c_int), ('screen', ctypes.c_void_p)]
x.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(Attributes)]
IS_VIEWABLE = 2

# A window may go between listing and reading it (a popup): ignore such errors instead of ending.
ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
x.XSetErrorHandler(ERROR_HANDLER)

command, title = sys.argv[1], sys.argv[2].encode()
dpy = x.XOpenDisplay(None)
if not dpy:
    sys.exit('cannot open the display')
protocols = x.XInternAtom(dpy, b'WM_PROTOCOLS', 0)
delete = x.XInternAtom(dpy, b'WM_DELETE_WINDOW', 0)

def windows(w):
    root, parent, children, n = ctypes.c_ulong(), ctypes.c_ulong(), ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
    yield w
    if x.XQueryTree(dpy, w, ctypes.byref(root), ctypes.byref(parent), ctypes.byref(children), ctypes.byref(n)):
        for i in range(n.value):
            yield from windows(children[i])

sent = viewable = 0
for w in windows(x.XDefaultRootWindow(dpy)):
    name = ctypes.c_char_p()
    if not (x.XFetchName(dpy, w, ctypes.byref(name)) and name.value == title):
        continue
    attributes = Attributes()
    if command == 'viewable' and x.XGetWindowAttributes(dpy, w, ctypes.byref(attributes)):
        viewable += attributes.map_state == IS_VIEWABLE
    if command == 'close':
        ev = Event()
        ev.xclient.type = 33  # ClientMessage
        ev.xclient.window = w
        ev.xclient.message_type = protocols
        ev.xclient.format = 32
        ev.xclient.l[0] = delete
        x.XSendEvent(dpy, w, 0, 0, ctypes.byref(ev))
        sent += 1
x.XFlush(dpy)
if command == 'viewable':
    print(viewable)
elif not sent:
    sys.exit('no window named ' + sys.argv[2])
