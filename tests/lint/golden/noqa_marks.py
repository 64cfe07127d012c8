# ruff: noqa
# noqa handling: matching code and bare noqa silence; another code does not.
from multiprocessing import Pool

a = Pool(2)  # noqa: DLD026
b = Pool(2)  # noqa
c = Pool(2)  # NOQA:DLD004,DLD026
d = Pool(2)  # noqa: DLD004  # error: DLD026
