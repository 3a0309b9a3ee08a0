"""The op package's build: phiops's build hook generates phiops_custom_op_example/generated/ from
its ops.yaml and backward.yaml before setuptools collects the files (docs/extending.md)."""

from setuptools import setup

from phiops.codegen.setuptools import cmdclass

setup(cmdclass=cmdclass())
