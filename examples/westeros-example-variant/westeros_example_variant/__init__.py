"""A worked example of a Westeros plugin: the variant house card Ser Duncan the Tall."""

__version__ = "0.1.0"
