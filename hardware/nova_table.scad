// Nova Table, the printed parts: the dice tray with its marker recesses, the camera mast at the height the
// camera's field of view asks for, and the enclosure for the screen, the encoder, the LED ring and the knobs.
// Parametric: change the tray, the camera or the dice below. One part at a time:
//   openscad -D 'part="tray"' -o stl/tray.stl nova_table.scad
// parts: tray, mast_foot, mast_column, mast_arm, enclosure_front, enclosure_back (hardware/README.md).
// The camera's height and a die's size in the reader's view are echoed (ECHO: lines on stderr).

part = "tray";

// -- the tray ---------------------------------------------------------------------------------------
floor_w = 190;          // the rolling area, mm: about A5, and small enough for a die of 40 px (echoed)
floor_d = 128;
wall = 3;               // the rolling area's wall
wall_h = 22;            // above its floor: a die bounces off, it does not jump out
base = 3;               // under the floor
marker = 20;            // the printed ArUco markers (calibration/make_markers.py --mm 20)
marker_gap = 1;         // white paper around a marker, each side
recess = 0.6;           // how deep a marker's recess is (paper and glue)
flange = marker + 2 * marker_gap + 1;   // the ledge outside the wall that carries the markers

// -- the camera (Raspberry Pi Camera Module 3, standard lens) ---------------------------------------
sensor_vfov = 41;       // degrees, the short side of its 16:9 sensor
view_aspect = 4 / 3;    // the app asks for 1280 x 960: the sides of the sensor are cropped
view_px = 640;          // the reader's view, pixels across
view_margin = 5;        // mm of table around the markers, each side
die = 16;               // the dice's size, mm (Nova Aetas d8 and d6 about 16)
camera_board = [25, 24, 1.2];           // the camera's board
camera_holes = [21, 12.5];              // its M2 holes, centre to centre
camera_hole_from_top = 2.5;             // from the board's top edge to the upper holes' centres
camera_depth = 12.4;                    // the board's back to the lens's front

// -- the mast ---------------------------------------------------------------------------------------
column = [24, 24];      // the column's section, mm
column_wall = 3;
socket = 40;            // the joint's overlap
arm_section = [22, 16];
clearance = 0.3;        // printing tolerance for parts that fit into each other

// -- the enclosure (7" Touch Display 800x480; for Touch Display 2 set its own sizes here) ---------------
screen_outer = [194, 110, 20];           // the display with its metal frame, mm
screen_window = [155, 87];               // the visible area, centred
box_depth = 45;                          // room for the Pi behind the display and the cables
encoder_hole = 7.5;                      // EC11 bushing M7
knob_hole = 7.5;                         // the Perilium knobs, EC11 too
ring_outer = 68;                         // WS2812B ring, 24 LEDs, 66 mm
ring_inner = 50;
knobs = 4;
skin = 2.5;

$fn = 48;
eps = 0.01;

// -- what the camera needs ---------------------------------------------------------------------------
outer_w = floor_w + 2 * (wall + flange);
outer_d = floor_d + 2 * (wall + flange);
view_w = outer_w + 2 * view_margin;
view_d = outer_d + 2 * view_margin;
view_hfov = 2 * atan(tan(sensor_vfov / 2) * view_aspect);
height = ceil(max(view_w / (2 * tan(view_hfov / 2)), view_d / (2 * tan(sensor_vfov / 2))));
seen_w = max(view_w, view_d * view_aspect);
die_px = die / seen_w * view_px;
echo(str("camera height above the tray's floor: ", height, " mm"));
echo(str("a die in the reader's view: ", round(die_px), " px across (", view_px, " px wide, ", round(seen_w), " mm of table)"));

// -- the tray ---------------------------------------------------------------------------------------
module marker_recesses() {
    for (x = [-1, 1], y = [-1, 1])
        translate([x * (outer_w / 2 - flange / 2), y * (outer_d / 2 - flange / 2), base - recess])
            translate([-(marker / 2 + marker_gap), -(marker / 2 + marker_gap), 0])
                cube([marker + 2 * marker_gap, marker + 2 * marker_gap, recess + eps]);
}

module mast_slot(grow = 0) {
    // the mast's foot slides under the tray's back edge, centred
    translate([-(column[0] + 20) / 2 - grow, outer_d / 2 - 12 - grow, -eps])
        cube([column[0] + 20 + 2 * grow, 12 + eps + grow, 1.6 + grow]);
}

module tray() {
    difference() {
        union() {
            translate([-outer_w / 2, -outer_d / 2, 0]) cube([outer_w, outer_d, base]);
            difference() {
                translate([-(floor_w / 2 + wall), -(floor_d / 2 + wall), 0])
                    cube([floor_w + 2 * wall, floor_d + 2 * wall, base + wall_h]);
                translate([-floor_w / 2, -floor_d / 2, base]) cube([floor_w, floor_d, wall_h + eps]);
            }
        }
        marker_recesses();
        mast_slot(clearance);
    }
}

// -- the mast: a foot under the tray, a column in two parts, an arm over the tray's middle -----------
lens_drop = camera_depth + 4;                             // the arm's underside to the lens: the plate and the camera
column_h = base + height + lens_drop - socket / 2;        // so that the lens is `height` above the floor
lower_h = round(column_h / 2);
reach = outer_d / 2 + column[1] / 2 + 6;                  // the column's axis to the tray's middle
bore = [column[0] - 2 * column_wall, column[1] - 2 * column_wall];

module hollow_column(h) {
    difference() {
        translate([-column[0] / 2, -column[1] / 2, 0]) cube([column[0], column[1], h]);
        translate([-bore[0] / 2, -bore[1] / 2, -eps]) cube([bore[0], bore[1], h + 2 * eps]);
    }
}

module spigot(h) {
    // fits into the bore of the part above it
    translate([-bore[0] / 2 + clearance, -bore[1] / 2 + clearance, 0]) cube([bore[0] - 2 * clearance, bore[1] - 2 * clearance, h]);
}

module mast_foot() {
    // a plate behind the tray with a tongue under its back edge (in its slot), the column's lower part, braced
    translate([0, reach, 0]) {
        hollow_column(lower_h);
        translate([0, 0, lower_h - eps]) spigot(socket / 2);
        translate([-column[0] / 2 - 30, outer_d / 2 + 1 - reach, 0]) cube([column[0] + 60, reach - outer_d / 2 + column[1] / 2 + 30, 6]);
        for (side = [-1, 1])
            translate([side * (column[0] / 2 + 2) - 2, column[1] / 2 - eps, 0])
                rotate([90, 0, 90]) linear_extrude(4) polygon([[0, 6], [28, 6], [0, 70]]);
    }
    translate([-(column[0] + 20) / 2, outer_d / 2 - 12, 0]) cube([column[0] + 20, reach - outer_d / 2 + 12, 1.6]);
}

module mast_column() {
    hollow_column(column_h - lower_h);
    translate([0, 0, column_h - lower_h - eps]) spigot(socket / 2);
}

module camera_plate() {
    // the camera's board screwed on from below, its lens through the plate's hole
    plate = [camera_board[0] + 8, camera_board[1] + 8, 4];
    difference() {
        translate([-plate[0] / 2, -plate[1] / 2, 0]) cube(plate);
        translate([0, 0, -eps]) cylinder(d = 9, h = plate[2] + 2 * eps);              // the lens
        for (x = [-1, 1], y = [0, 1])
            translate([x * camera_holes[0] / 2, camera_board[1] / 2 - camera_hole_from_top - y * camera_holes[1], -eps])
                cylinder(d = 1.8, h = plate[2] + 2 * eps);                            // M2, self-tapping
    }
}

module mast_arm() {
    // a socket onto the column's spigot, the arm out to the tray's middle, the camera plate at its end
    translate([0, reach, 0]) {
        difference() {
            translate([-column[0] / 2, -column[1] / 2, 0]) cube([column[0], column[1], socket / 2 + arm_section[1]]);
            translate([-bore[0] / 2, -bore[1] / 2, -eps]) cube([bore[0], bore[1], socket / 2 + eps]);
        }
        translate([-arm_section[0] / 2, -reach - camera_board[1] / 2 - 4, socket / 2])
            cube([arm_section[0], reach + camera_board[1] / 2 + 4, arm_section[1]]);
        // a gusset under the arm, by the column
        translate([-arm_section[0] / 2, -column[1] / 2 + eps, 0]) rotate([90, 0, 90]) linear_extrude(arm_section[0])
            polygon([[0, socket / 2 + eps], [-40, socket / 2 + eps], [0, 0]]);
    }
    translate([0, 0, socket / 2 - 4 + eps]) camera_plate();
}

// -- the enclosure: a box for the Pi behind the screen; its lid is the front panel: the screen, and beside it
// -- the LED ring with the encoder in its middle and the Perilium knobs; feet tilt it toward the players ------
controls_w = 80;
box = [screen_outer[0] + 2 * skin + controls_w, screen_outer[1] + 2 * skin, box_depth];
tilt = 20;                                // degrees toward the players (0: flat, in the table's middle)
pi_holes = [58, 49];                      // Raspberry Pi 4 and 5, M2.5
panel = skin + 4;

module enclosure_front() {
    controls = [skin + screen_outer[0] + controls_w / 2, box[1] / 2];
    difference() {
        cube([box[0], box[1], panel]);
        translate([skin + (screen_outer[0] - screen_window[0]) / 2, (box[1] - screen_window[1]) / 2, -eps])
            cube([screen_window[0], screen_window[1], panel + 2 * eps]);                 // the window
        translate([skin, skin, panel - 4]) cube([screen_outer[0], screen_outer[1], 4 + eps]);  // the display's bed
        translate([controls[0], controls[1] + 14, -eps]) {
            translate([0, 0, panel - 1.2]) cylinder(d = ring_outer + 1, h = 1.2 + eps);   // the ring, from inside
            difference() {                                                                // its light through
                cylinder(d = ring_outer - 6, h = panel + 2 * eps);
                translate([0, 0, -eps]) cylinder(d = ring_inner + 6, h = panel + 4 * eps);
            }
            cylinder(d = encoder_hole, h = panel + 2 * eps);                             // the encoder
        }
        for (k = [0 : knobs - 1])
            translate([controls[0] + (k - (knobs - 1) / 2) * 17, skin + 10, -eps]) cylinder(d = knob_hole, h = panel + 2 * eps);
    }
}

module enclosure_back() {
    difference() {
        union() {
            cube(box);
            for (x = [skin, box[0] - skin - 6])                                           // the feet: the tilt
                translate([x, 0, eps]) rotate([90, 0, 90]) linear_extrude(6)
                    polygon([[0, 0], [box[1], 0], [box[1], -box[1] * tan(tilt)]]);
        }
        translate([skin, skin, skin]) cube([box[0] - 2 * skin, box[1] - 2 * skin, box[2]]);
        for (x = [40 : 12 : box[0] - 40]) translate([x, box[1] / 2 - 20, -eps]) cube([4, 40, skin + 2 * eps]);  // vents
        translate([box[0] - skin - eps, box[1] / 2 - 15, skin + 8]) cube([skin + 2 * eps, 30, 16]);  // the cables out
    }
    for (x = [0, 1], y = [0, 1])                                                          // the Pi's standoffs
        translate([40 + x * pi_holes[0], (box[1] - pi_holes[1]) / 2 + y * pi_holes[1], skin - eps])
            difference() { cylinder(d = 6, h = 5); cylinder(d = 2.2, h = 5 + eps); }
}

if (part == "tray") tray();
else if (part == "mast_foot") mast_foot();
else if (part == "mast_column") mast_column();
else if (part == "mast_arm") mast_arm();
else if (part == "enclosure_front") enclosure_front();
else if (part == "enclosure_back") enclosure_back();
else assert(false, str("no part named ", part));
