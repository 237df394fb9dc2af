# placeholder: the tests of this part register here
