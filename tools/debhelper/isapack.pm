# debhelper sequence add-on (dh-sequence-isapack): runs dh_isapack before
# dh_gencontrol, so ${isapack:GPU-Architecture} is set when the control
# files are written.
use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

insert_before('dh_gencontrol', 'dh_isapack');

1;
