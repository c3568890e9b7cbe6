-- placeholder: being written
return {}
